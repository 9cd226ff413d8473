import type { WebsiteSiteInput } from '@rampart/contracts';

/** Addresses that reach this machine itself. */
const wildcard = new Set(['0.0.0.0', '::']);
const loopback = (host: string) => host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * The first origin that is one of the site's own listeners: the gateway would forward to itself, and
 * every request would loop until the connections run out. A discovered site suggests exactly that
 * (its web server's address) until the web server is moved to another port, so the form says so.
 */
export function originOnOwnListener(site: Pick<WebsiteSiteInput, 'listen' | 'upstreams'>): string | null {
  for (const origin of site.upstreams) {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      continue;
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const hit = site.listen.some((l) => l.port === port && (l.address === host || (loopback(host) && (wildcard.has(l.address) || loopback(l.address)))));
    if (hit) return origin;
  }
  return null;
}
