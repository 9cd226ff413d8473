import type http from 'node:http';
import { authorizationEntry, verifyAuthorizationPassword, type Decision, type WafRequest } from '@rampart/waf';
import type { RenderedResponse } from './block-response.ts';
import { reportAuthorize } from './gateway-events.ts';
import {
  authorizePath,
  pageLanguage,
  renderAuthorizeForm,
  renderClickPage,
  renderNotFound,
  renderReturn,
  renderVerifyExpired,
  renderVerifyRedirect,
  safeReturn,
  verifyPath,
  type PageLanguage,
} from './gateway-pages.ts';
import { formTokenMs, passCookie, signToken, ticketMs, verifyToken } from './gateway-tokens.ts';
import type { ProxyContext } from './proxy.ts';
import type { SitePolicy, SiteRuntime } from './site-runtime.ts';

/** A gateway page's form is small; more than this is refused unread. */
const maxFormBytes = 8 * 1024;

function languageOf(req: http.IncomingMessage): PageLanguage {
  const value = req.headers['accept-language'];
  return pageLanguage(Array.isArray(value) ? value[0] : value);
}

/** Is the authorization password usable (enabled and set)? */
export function authorizationOpen(policy: SitePolicy | null): boolean {
  const auth = policy?.compiled.settings.protect.authorization;
  return auth !== undefined && auth.enabled && auth.password_hash !== '';
}

/**
 * The answer to a challenged request: the authorization form for a time-limited URL outside its
 * hours, else the CC human verification the protect tab chose (redirect or click).
 */
export function renderChallenge(rt: SiteRuntime, policy: SitePolicy, decision: Extract<Decision, { action: 'challenge' }>, req: http.IncomingMessage, request: WafRequest): RenderedResponse {
  const lang = languageOf(req);
  const returnTo = safeReturn(request.target);
  if (decision.rule === 'protect.authorization' && authorizationOpen(policy)) return authorizeForm(rt, policy, lang, request.clientIp, request.now, returnTo, 403);
  const ticket = signToken(policy.secret, 'ticket', rt.site.id, request.clientIp, request.now + ticketMs, returnTo);
  return policy.compiled.settings.protect.cc.verification === 'click' ? renderClickPage(lang, returnTo, ticket) : renderVerifyRedirect(lang, returnTo, ticket);
}

function authorizeForm(rt: SiteRuntime, policy: SitePolicy, lang: PageLanguage, ip: string, now: number, returnTo: string, status: number, error?: 'wrong' | 'tooMany' | 'formExpired'): RenderedResponse {
  const token = signToken(policy.secret, 'form', rt.site.id, ip, now + formTokenMs);
  const minutes = policy.compiled.settings.protect.authorization.validity_minutes;
  return renderAuthorizeForm(lang, error ? { returnTo, token, minutes, status, error } : { returnTo, token, minutes, status });
}

/** Reads a small urlencoded form body; null when it is too big or broken off. */
function readForm(req: http.IncomingMessage): Promise<URLSearchParams | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxFormBytes) {
        req.removeAllListeners('data');
        req.resume();
        resolve(null);
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(size > maxFormBytes ? null : new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', () => resolve(null));
  });
}

/**
 * A request under the reserved prefix: the gateway's own pages, answered here and never
 * forwarded. They are served before the lists (an intercepted visitor must reach the
 * authorization form; nothing here reaches the origin), with the wrong-password limit as their
 * guard. Without a policy there is nothing to serve: 404.
 */
export async function serveGatewayPage(ctx: ProxyContext, rt: SiteRuntime, req: http.IncomingMessage, request: WafRequest, secure: boolean): Promise<RenderedResponse> {
  const policy = rt.policy;
  const url = new URL(request.target, 'http://gateway.invalid');
  if (!policy) return renderNotFound();
  const lang = languageOf(req);
  const ip = request.clientIp;
  const now = request.now;
  if (url.pathname === verifyPath) {
    const click = policy.compiled.settings.protect.cc.verification === 'click';
    // Each verification answers on its own method only: a click page's ticket is no good as a link.
    if (req.method !== (click ? 'POST' : 'GET')) return renderNotFound();
    const form = click ? await readForm(req) : url.searchParams;
    const returnTo = safeReturn(form?.get('r'));
    const ticket = form?.get('t') ?? '';
    if (!verifyToken(policy.secret, 'ticket', rt.site.id, ip, now, ticket, returnTo)) return renderVerifyExpired(lang, returnTo);
    return renderReturn(returnTo, passCookie(policy.secret, rt.site.id, ip, now, secure));
  }
  if (url.pathname === authorizePath && authorizationOpen(policy)) {
    if (req.method === 'GET' || req.method === 'HEAD') return authorizeForm(rt, policy, lang, ip, now, safeReturn(url.searchParams.get('r')), 200);
    if (req.method !== 'POST') return renderNotFound();
    const form = await readForm(req);
    const returnTo = safeReturn(form?.get('r'));
    if (ctx.authorizeLimiter.locked(ip, now)) return authorizeForm(rt, policy, lang, ip, now, returnTo, 429, 'tooMany');
    if (!form || !verifyToken(policy.secret, 'form', rt.site.id, ip, now, form.get('token') ?? '')) return authorizeForm(rt, policy, lang, ip, now, returnTo, 403, 'formExpired');
    const auth = policy.compiled.settings.protect.authorization;
    const password = form.get('password') ?? '';
    // Bounded before hashing: the spec's passwords are at most 50 bytes.
    if (password.length > 200 || !verifyAuthorizationPassword(auth.password_hash, password)) {
      ctx.authorizeLimiter.wrong(ip, now);
      return authorizeForm(rt, policy, lang, ip, now, returnTo, 403, 'wrong');
    }
    ctx.authorizeLimiter.right(ip);
    reportAuthorize(ctx, rt, request, authorizationEntry(ip, now, auth.validity_minutes), ctx.services.areasOf(ip));
    return renderReturn(returnTo);
  }
  return renderNotFound();
}
