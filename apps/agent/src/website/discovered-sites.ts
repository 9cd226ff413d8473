import { readFileSync } from 'node:fs';
import { isIpAddress, isUpstreamUrl, type WebsiteDiscoveredSite } from '@rampart/contracts';
import { discoverLocalSites, listeningPorts, planOrigins } from '@rampart/web-discovery';

export interface DiscoveryCommands {
  nginx?: { command: string; args: string[] };
  apache?: { command: string; args: string[] };
  /** The host's TCP listening ports (tests give their own); by default read from /proc/net/tcp and tcp6. */
  busyPorts?: () => Set<number>;
}

/** Ports something listens on now: a suggested loopback origin must not be one of them. */
function hostListeningPorts(): Set<number> {
  const ports = new Set<number>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    try {
      for (const port of listeningPorts(readFileSync(file, 'utf8'))) ports.add(port);
    } catch {
      // No IPv6 table (or no /proc): the found sites' own ports are still skipped.
    }
  }
  return ports;
}

/** The local nginx and Apache sites, offered for protection (@rampart/web-discovery: `nginx -T`, `apachectl -S`). */
export async function discoveredSites(commands: DiscoveryCommands = {}): Promise<WebsiteDiscoveredSite[]> {
  const found = await discoverLocalSites(commands);
  // A site that already proxies keeps its origin; one that serves its own pages moves to a free
  // loopback port behind the gateway, and the answer says which listener to change (planOrigins).
  const plans = planOrigins(found, { busyPorts: (commands.busyPorts ?? hostListeningPorts)(), reachable: reachableOrigin });
  return found.map((site, i) => ({
    server: site.server,
    name: site.name,
    server_names: site.serverNames,
    listen: site.listen.map((l) => ({ address: l.address ?? '0.0.0.0', port: l.port, tls: l.tls })),
    upstream_hint: plans[i]!.upstream,
    origin_move: plans[i]!.move,
    source: `${site.file}:${site.line}`,
  }));
}

/** `proxy_pass http://blog_backend` names an nginx upstream block, not a host the gateway can reach. */
function reachableOrigin(url: string): boolean {
  if (!isUpstreamUrl(url)) return false;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.includes('.') || isIpAddress(host);
}
