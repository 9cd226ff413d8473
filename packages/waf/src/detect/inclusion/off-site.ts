/**
 * A URL parameter judged against the request's own Host (CRS 931130's question, "does this link
 * leave the site?", asked narrowly). Applications take URLs to other sites all day — a profile's
 * website, an OAuth `redirect_uri`, a payment provider's `notify_url`, an image to proxy, `next=` —
 * so another host alone is no finding (`?x=https://foo.bar` is also a CRS must-pass request). What
 * is flagged is what only a probe or an inclusion does with it:
 *  - the site's own host as the userinfo of a URL to another host (`https://shop.example@evil.example/`):
 *    a check for "starts with my host" is fooled, a browser or fetcher goes to evil.example;
 *  - the site's host as the first labels of another domain (`https://shop.example.evil.example/`), a bare
 *    root as allow-list bypass probes send it (asset URLs on a bucket named after the site have a path);
 *  - this host on a port it is not served on (`https://shop.example:8081/`): the server reaching its own
 *    internal services;
 *  - an FTP URL to another host (browsers dropped FTP: only a server-side fetch or include reads it);
 *  - another host's script source or text (`.txt`, `.inc`, `.phps`, `.sh`…), served unexecuted, the
 *    file an include() runs — unless the parameter names where to send the user or a notification.
 *    (`.php` is left out here: forum threads and wiki pages end in it, a profile's website too; in a
 *    parameter named for inclusion, `?page=`, index.ts flags it.)
 * All but the userinfo trick are suspicious only (strict mode): each has a rare honest use.
 */
import { hostName } from '../../protocol/view.ts';
import type { DetectorContext } from '../../types.ts';

export interface OffSiteFinding {
  rule: 'inclusion.deceptive_url' | 'inclusion.lookalike_host' | 'inclusion.own_host_port' | 'inclusion.remote_url';
  severity: 1 | 2;
}

/** Parameters that say where to send the user or a notification: another site's page is their purpose. */
const navigationNames = /(?:redirect|return|callback|notify|webhook|next|continue|success|cancel|back|goto|dest|target|referr?er)/i;
/** Paths ending in source or text an include() would run (the payload host serves it unexecuted). */
const sourcePath = /\.(?:txt|inc|phps|sh|pl|py)$/;
const defaultPorts: Record<string, number> = { http: 80, https: 443, ftp: 21, ftps: 990 };

interface UrlParts {
  scheme: string;
  userinfo: string | null;
  host: string;
  port: number | null;
  path: string;
}

/** scheme://[userinfo@]host[:port]/path… of a lower-case URL; null when it has no such shape. */
function partsOf(lower: string): UrlParts | null {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)/.exec(lower);
  if (!m) return null;
  const authority = m[2]!;
  const at = authority.lastIndexOf('@');
  const hostPort = at >= 0 ? authority.slice(at + 1) : authority;
  const port = /:(\d{1,5})$/.exec(hostPort)?.[1];
  return {
    scheme: m[1]!,
    userinfo: at >= 0 ? authority.slice(0, at) : null,
    host: withoutRootDot(hostName(hostPort)),
    port: port === undefined ? null : Number(port),
    path: m[3]!,
  };
}

/** `example.com.` (the DNS root spelled out) is example.com. */
function withoutRootDot(host: string): string {
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/** The last two labels: a naive registrable domain (www.shop.example and cdn.shop.example share one). */
function siteOf(host: string): string {
  return host.split('.').slice(-2).join('.');
}

/**
 * `lower` is the whole value, lower case, starting with its scheme. Null when the Host is unknown,
 * the value is more than a URL, or nothing above applies.
 */
export function judgeOffSite(lower: string, context: DetectorContext | undefined, name: string | undefined): OffSiteFinding | null {
  const requestHost = context?.host;
  if (!requestHost || /\s/.test(lower)) return null;
  const url = partsOf(lower);
  if (url === null || url.host === '') return null;
  const own = withoutRootDot(hostName(requestHost));
  const ownPort = /:(\d{1,5})$/.exec(requestHost)?.[1];
  if (url.host === own) {
    const port = url.port ?? defaultPorts[url.scheme] ?? null;
    const served = ownPort === undefined ? [80, 443] : [Number(ownPort)];
    return port !== null && !served.includes(port) ? { rule: 'inclusion.own_host_port', severity: 1 } : null;
  }
  const sameSite = siteOf(url.host) === siteOf(own) || url.host.endsWith(`.${own}`) || own.endsWith(`.${url.host}`);
  if (sameSite) return null;
  if (url.userinfo !== null && hostName(url.userinfo.replace(/:[^:]*$/, '')) === own) return { rule: 'inclusion.deceptive_url', severity: 2 };
  // shop.example.evil.example, not shop.example.au (a sister site under a country code).
  if (url.host.startsWith(`${own}.`) && url.host.slice(own.length + 1).includes('.') && (url.path === '' || url.path === '/')) {
    return { rule: 'inclusion.lookalike_host', severity: 1 };
  }
  if (url.scheme === 'ftp' || url.scheme === 'ftps') return { rule: 'inclusion.remote_url', severity: 1 };
  if (sourcePath.test(url.path) && !(name !== undefined && navigationNames.test(name))) return { rule: 'inclusion.remote_url', severity: 1 };
  return null;
}
