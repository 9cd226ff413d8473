import type { CandidateSite } from './discover.ts';

/** What the administrator changes in the web server before the gateway takes its listener. */
export interface OriginMove {
  /** The listener the web server has now, which the gateway takes (`address:port`). */
  from: string;
  /** Where the web server answers instead: loopback, a port nothing uses (`127.0.0.1:port`). */
  to: string;
  /** The listener was HTTPS: the gateway now serves the certificate, the web server answers plain HTTP on `to`. */
  tls: boolean;
}

/** The suggested origin of a found site, and the move it needs (null when it already proxies elsewhere). */
export interface OriginPlan {
  upstream: string;
  move: OriginMove | null;
}

/** Ports in the LISTEN state in the text of /proc/net/tcp or /proc/net/tcp6. */
export function listeningPorts(procNetTcp: string): Set<number> {
  const ports = new Set<number>();
  for (const line of procNetTcp.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    // sl local_address rem_address st …; st 0A is LISTEN, the local port is hex after the last colon.
    if (cols.length < 4 || cols[3] !== '0A') continue;
    const port = Number.parseInt(cols[1]!.slice(cols[1]!.lastIndexOf(':') + 1), 16);
    if (Number.isInteger(port) && port > 0) ports.add(port);
  }
  return ports;
}

const wildcard = (address: string | undefined) => address === undefined || address === '0.0.0.0' || address === '::' || address === '*';
const loopback = (host: string) => host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

/** Whether `url` points at one of the site's own listeners (the gateway, once it takes them). */
function ownListener(site: CandidateSite, url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
  return site.listen.some((l) => l.port === port && (l.address === host || (loopback(host) && (wildcard(l.address) || loopback(l.address ?? '')))));
}

/**
 * The origin each found site gets in the add form. The gateway takes the site's listener, so the
 * web server itself can't stay the origin where it listens now (the gateway would forward to
 * itself, which the form refuses). What a user protecting an nginx or Apache site expects:
 *
 * - a site that already proxies (`proxy_pass` to a host the gateway can reach, not to itself) keeps
 *   that origin, and nothing in the web server changes;
 * - a site that serves its own pages moves to loopback behind the gateway: the suggested origin is
 *   `http://127.0.0.1:<port>` on a port nothing listens on (from `firstPort` up, skipping the host's
 *   listening ports and every port the found sites use), and `move` says which listener to change
 *   to what. Sites that share a listener (name-based virtual hosts) move to the same port, as the
 *   one `listen` line they share would.
 */
export function planOrigins(
  sites: readonly CandidateSite[],
  options: { busyPorts: ReadonlySet<number>; reachable: (url: string) => boolean; firstPort?: number },
): OriginPlan[] {
  const taken = new Set<number>(options.busyPorts);
  for (const site of sites) for (const l of site.listen) taken.add(l.port);
  const moved = new Map<string, number>();
  let next = options.firstPort ?? 8080;
  const freePort = (): number => {
    while (taken.has(next) && next < 65535) next++;
    taken.add(next);
    return next;
  };
  return sites.map((site) => {
    const proxied = site.proxyPass?.find((url) => options.reachable(url) && !ownListener(site, url));
    if (proxied) return { upstream: proxied, move: null };
    const first = site.listen[0] ?? { address: undefined, port: 80, tls: false };
    const from = `${first.address ?? '0.0.0.0'}:${first.port}`;
    const port = moved.get(from) ?? freePort();
    moved.set(from, port);
    return { upstream: `http://127.0.0.1:${port}`, move: { from, to: `127.0.0.1:${port}`, tls: first.tls } };
  });
}
