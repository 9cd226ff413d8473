import { isIpAddress, isUpstreamUrl, type WebsiteDiscoveredSite } from '@rampart/contracts';
import { discoverLocalSites } from '@rampart/web-discovery';

export interface DiscoveryCommands {
  nginx?: { command: string; args: string[] };
  apache?: { command: string; args: string[] };
}

/** The local nginx and Apache sites, offered for protection (@rampart/web-discovery: `nginx -T`, `apachectl -S`). */
export async function discoveredSites(commands: DiscoveryCommands = {}): Promise<WebsiteDiscoveredSite[]> {
  const found = await discoverLocalSites(commands);
  return found.map((site) => {
    const first = site.listen[0];
    // A site that already proxies keeps its origin; otherwise the web server itself becomes the
    // origin on loopback (the administrator moves it off the public port before the gateway takes it).
    const proxied = site.proxyPass?.find(reachableOrigin);
    const loopback = `${first?.tls ? 'https' : 'http'}://127.0.0.1:${first?.port ?? 80}`;
    return {
      server: site.server,
      name: site.name,
      server_names: site.serverNames,
      listen: site.listen.map((l) => ({ address: l.address ?? '0.0.0.0', port: l.port, tls: l.tls })),
      upstream_hint: proxied ?? loopback,
      source: `${site.file}:${site.line}`,
    };
  });
}

/** `proxy_pass http://blog_backend` names an nginx upstream block, not a host the gateway can reach. */
function reachableOrigin(url: string): boolean {
  if (!isUpstreamUrl(url)) return false;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.includes('.') || isIpAddress(host);
}
