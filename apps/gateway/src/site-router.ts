import type { GatewaySite } from '@rampart/contracts';

/** The name part of a Host header: no port, lower case, no trailing dot. */
export function hostName(host: string | undefined): string {
  if (!host) return '';
  let h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.lastIndexOf(':');
  if (colon >= 0) h = h.slice(0, colon);
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

/** Does a server_name pattern (`example.com`, `*.example.com`, `.example.com`) cover the host? */
export function nameMatches(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase();
  if (p === host) return true;
  if (p.startsWith('*.')) return host.endsWith(p.slice(1)) && host.length > p.length - 1;
  if (p.startsWith('.')) return host === p.slice(1) || host.endsWith(p);
  return false;
}

/**
 * The site for a request on one listener, as nginx chooses: an exact name, then a wildcard, then
 * the first site with no names, then the first site of the listener (the default server).
 */
export function chooseSite<S extends { site: Pick<GatewaySite, 'server_names'> }>(sites: readonly S[], host: string | undefined): S | undefined {
  const name = hostName(host);
  if (name) {
    const exact = sites.find((s) => s.site.server_names.some((p) => p.toLowerCase() === name));
    if (exact) return exact;
    const wild = sites.find((s) => s.site.server_names.some((p) => nameMatches(p, name)));
    if (wild) return wild;
  }
  return sites.find((s) => s.site.server_names.length === 0) ?? sites[0];
}
