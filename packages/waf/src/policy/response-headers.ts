import type { CompiledPolicy } from './compile.ts';

/* Response phase of the base tab: cookie attributes and X-Frame-Options. */

/**
 * One Set-Cookie value with the site's cookie attributes: HttpOnly added when on (never removed
 * when off: the application may need it); SameSite set to the chosen value, replacing the
 * application's own (the administrator chose it for the whole site). `off` leaves SameSite alone.
 */
export function rewriteSetCookie(value: string, cookie: { http_only: boolean; same_site: 'off' | 'lax' | 'strict' }): string {
  if (!cookie.http_only && cookie.same_site === 'off') return value;
  const parts = value.split(';');
  const head = parts[0]!;
  let attributes = parts.slice(1).map((p) => p.trim()).filter((p) => p !== '');
  const named = (name: string) => (a: string) => a.toLowerCase() === name || a.toLowerCase().startsWith(`${name}=`);
  if (cookie.http_only && !attributes.some(named('httponly'))) attributes.push('HttpOnly');
  if (cookie.same_site !== 'off') {
    attributes = attributes.filter((a) => !named('samesite')(a));
    attributes.push(cookie.same_site === 'lax' ? 'SameSite=Lax' : 'SameSite=Strict');
  }
  return [head, ...attributes].join('; ');
}

/**
 * The framing headers to add to a response that has none of its own. `allow_from` sends the CSP
 * `frame-ancestors` list (what browsers honour) beside the legacy ALLOW-FROM for the first domain.
 */
export function frameHeaders(policy: CompiledPolicy, responseHeaders: readonly (readonly [string, string])[]): [string, string][] {
  const frame = policy.settings.base.frame_options;
  if (frame.mode === 'off') return [];
  const has = (name: string) => responseHeaders.some(([n]) => n.toLowerCase() === name);
  const hasAncestors = responseHeaders.some(([n, v]) => n.toLowerCase() === 'content-security-policy' && v.toLowerCase().includes('frame-ancestors'));
  const out: [string, string][] = [];
  if (frame.mode === 'allow_from') {
    if (!has('x-frame-options') && frame.domains[0]) out.push(['X-Frame-Options', `ALLOW-FROM https://${frame.domains[0]}`]);
    if (!hasAncestors) out.push(['Content-Security-Policy', `frame-ancestors 'self' ${frame.domains.map((d) => `https://${d} http://${d}`).join(' ')}`]);
    return out;
  }
  if (!has('x-frame-options')) out.push(['X-Frame-Options', frame.mode === 'deny' ? 'DENY' : 'SAMEORIGIN']);
  return out;
}

/** Response headers with the cookie and framing settings applied (names and order kept). */
export function rewriteResponseHeaders(policy: CompiledPolicy, headers: readonly (readonly [string, string])[]): [string, string][] {
  const cookie = policy.settings.base.cookie;
  const out: [string, string][] = headers.map(([name, value]) => [name, name.toLowerCase() === 'set-cookie' ? rewriteSetCookie(value, cookie) : value]);
  return [...out, ...frameHeaders(policy, headers)];
}

/** Media types whose bodies the filter library rewrites (text the browser shows). */
export function isFilterableBody(contentType: string | null, contentEncoding: string | null): boolean {
  if (contentEncoding && contentEncoding.trim().toLowerCase() !== 'identity') return false;
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return type.startsWith('text/') || type === 'application/json' || type === 'application/xhtml+xml' || type === 'application/javascript';
}
