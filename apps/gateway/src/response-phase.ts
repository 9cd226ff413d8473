import { isUtf8 } from 'node:buffer';
import { applyKeywordFilter, isFilterableBody, rewriteResponseHeaders, rewriteSetCookie, type WafRequest } from '@rampart/waf';
import type { WebsiteInterceptEntry } from '@rampart/contracts';
import { reportIntercept } from './gateway-events.ts';
import type { ProxyContext } from './proxy.ts';
import type { SitePolicy, SiteRuntime } from './site-runtime.ts';

/*
 * The origin's answer on its way back, for a site with status on and a policy: cookie attributes
 * and framing headers (base tab), the filter keyword library on text bodies, and the 404 scan.
 */

/**
 * Bodies the filter library rewrites are held whole in memory to be rewritten (a keyword may span
 * two chunks, and Content-Length must be right): 2 MiB covers any page a browser shows while
 * keeping memory per request bounded. Larger or unknown-and-growing bodies pass untouched.
 */
export const maxFilteredBody = 2 * 1024 * 1024;

function header(headers: readonly (readonly [string, string])[], name: string): string | null {
  for (const [n, v] of headers) if (n.toLowerCase() === name) return v;
  return null;
}

/** Only UTF-8 (or unlabelled, which for the filterable types means UTF-8 or ASCII) text is rewritten; GBK and friends pass untouched. */
function utf8Charset(contentType: string | null): boolean {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '');
  if (!match) return true;
  const charset = match[1]!.toLowerCase();
  return charset === 'utf-8' || charset === 'utf8' || charset === 'us-ascii';
}

export interface ResponsePlan {
  headers: [string, string][];
  /** Buffer the body (up to maxFilteredBody) and run the filter library over it. */
  filter: boolean;
}

export function planResponse(policy: SitePolicy, method: string, status: number, headers: [string, string][]): ResponsePlan {
  const compiled = policy.compiled;
  const out = rewriteResponseHeaders(compiled, headers);
  // A 206 is a slice of the body: rewriting it would break the byte ranges the client stitches together.
  if (!compiled.keywords.filter.enabled || status === 204 || status === 206 || status === 304) return { headers: out, filter: false };
  const contentType = header(headers, 'content-type');
  if (!isFilterableBody(contentType, header(headers, 'content-encoding')) || !utf8Charset(contentType)) return { headers: out, filter: false };
  const length = header(headers, 'content-length');
  const declared = length !== null && /^\d{1,15}$/.test(length.trim()) ? Number(length.trim()) : null;
  const filter = declared === null || declared <= maxFilteredBody;
  // A HEAD has no body to rewrite, yet it must not promise the origin's length and tag for a body
  // the GET would rewrite: they go, as the GET's would when the filter changes it (nginx's
  // sub_filter does the same). The GET's own length is unknown without fetching the body.
  if (method === 'HEAD') return { headers: filter ? headersWithoutBodyIdentity(out) : out, filter: false };
  return { headers: out, filter };
}

/** Headers with the origin body's length and identity (Content-Length, ETag, Content-MD5) taken out. */
function headersWithoutBodyIdentity(headers: readonly [string, string][]): [string, string][] {
  return headers.filter(([n]) => {
    const name = n.toLowerCase();
    return name !== 'content-length' && name !== 'etag' && name !== 'content-md5';
  });
}

/**
 * The origin's 101 to an upgrade, for a site with a policy: a handshake may set the session's
 * cookie, which gets the site's cookie attributes like any other. Framing headers are for pages,
 * and a tunnel is none.
 */
export function upgradeResponseHeaders(policy: SitePolicy | null, headers: [string, string][]): [string, string][] {
  if (!policy) return headers;
  const cookie = policy.compiled.settings.base.cookie;
  return headers.map(([n, v]) => [n, n.toLowerCase() === 'set-cookie' ? rewriteSetCookie(v, cookie) : v]);
}

/** The filter library over a whole body; the bytes as they came when nothing changed or they are not valid UTF-8. */
export function filterBody(policy: SitePolicy, body: Buffer): Buffer {
  if (body.length === 0 || !isUtf8(body)) return body;
  const text = body.toString('utf8');
  const out = applyKeywordFilter(policy.compiled.keywords, text);
  return out === text ? body : Buffer.from(out, 'utf8');
}

/**
 * The headers for the body actually sent: its Content-Length, and no ETag when the filter changed
 * it (the origin's tag names bytes the client never got; a cache revalidating with it would be
 * told the rewritten copy is the origin's).
 */
export function headersForBody(headers: readonly [string, string][], length: number, changed: boolean): [string, string][] {
  const drop = (name: string) => name === 'content-length' || (changed && (name === 'etag' || name === 'content-md5'));
  return [...headers.filter(([n]) => !drop(n.toLowerCase())), ['Content-Length', String(length)]];
}

/**
 * Asks the origin for an unencoded body when the filter library is on, so compressed pages do not
 * slip past it (the gateway does not re-compress: the cost moves to the client link, which is the
 * administrator's choice in turning the library on).
 */
export function upstreamHeadersForFilter(policy: SitePolicy | null, headers: [string, string][]): [string, string][] {
  if (!policy?.compiled.keywords.filter.enabled) return headers;
  return headers.filter(([n]) => n.toLowerCase() !== 'accept-encoding');
}

/** 404 scan: one more 404 for the address; over the limit puts it on the interception list. */
export function count404(ctx: ProxyContext, rt: SiteRuntime, request: WafRequest, areas: readonly string[]): void {
  const scan = rt.policy?.compiled.settings.protect.scan_404;
  if (!scan?.enabled) return;
  const now = Date.now();
  if (!ctx.services.count('not_found', rt.site.id, request.clientIp, now, scan.per_minute)) return;
  ctx.services.resetCount('not_found', rt.site.id, request.clientIp);
  const entry: WebsiteInterceptEntry = { ip: request.clientIp, reason: 'scan_404', created_at: now, detail: `> ${scan.per_minute} 404/min`, expires_at: now + scan.block_minutes * 60_000 };
  reportIntercept(ctx, rt, request, 'protect.scan_404', entry, areas);
}
