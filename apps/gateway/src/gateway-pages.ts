import type { RenderedResponse } from './block-response.ts';

/*
 * The pages the gateway serves itself under one reserved path prefix, never forwarded: the CC
 * human verification (redirect and click) and the authorization password form, in the visitor's
 * language (zh-CN or en-US by Accept-Language). Pure renderers; gateway-routes.ts answers with them.
 */

/** Requests under this prefix are the gateway's own (a site's own path here would be shadowed; the dot makes that unlikely). */
export const pagePrefix = '/.rampart/';
export const verifyPath = `${pagePrefix}verify`;
export const authorizePath = `${pagePrefix}authorize`;

export type PageLanguage = 'zh-CN' | 'en-US';

/** The visitor's language: the most preferred of Chinese or English in Accept-Language (q-values honoured), else English. */
export function pageLanguage(acceptLanguage: string | undefined): PageLanguage {
  if (!acceptLanguage) return 'en-US';
  let best: { lang: PageLanguage; q: number } | null = null;
  for (const item of acceptLanguage.split(',').slice(0, 30)) {
    const [tagPart, ...params] = item.trim().split(';');
    const tag = (tagPart ?? '').trim().toLowerCase();
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    const lang: PageLanguage | null = tag === 'zh' || tag.startsWith('zh-') ? 'zh-CN' : tag === 'en' || tag.startsWith('en-') ? 'en-US' : null;
    if (lang && (best === null || q > best.q)) best = { lang, q };
  }
  return best?.lang ?? 'en-US';
}

const texts = {
  'en-US': {
    checkTitle: 'Checking your browser',
    checkText: 'This site is receiving many requests from your address. Press the button to continue to the page you asked for.',
    checkButton: 'Continue',
    redirectText: 'Continue to the site',
    expiredTitle: 'Verification expired',
    expiredText: 'The verification has expired. Go back to the page and try again.',
    back: 'Back to the page',
    authTitle: 'Authorization',
    authText: (minutes: number) => `Enter the authorization password to let this address in for ${minutes} minutes.`,
    password: 'Password',
    authButton: 'Authorize',
    wrong: 'The password is wrong.',
    tooMany: 'Too many wrong passwords from this address. Try again later.',
    formExpired: 'The form has expired. Enter the password again.',
    authorizeLink: 'Have the authorization password? Authorize this address',
  },
  'zh-CN': {
    checkTitle: '正在验证您的浏览器',
    checkText: '本站收到来自您地址的大量请求。请点击按钮继续访问您请求的页面。',
    checkButton: '继续访问',
    redirectText: '继续访问本站',
    expiredTitle: '验证已过期',
    expiredText: '验证已过期，请返回页面重试。',
    back: '返回页面',
    authTitle: '访问授权',
    authText: (minutes: number) => `输入授权密码后，本地址在 ${minutes} 分钟内可以访问。`,
    password: '密码',
    authButton: '授权',
    wrong: '密码错误。',
    tooMany: '该地址密码错误次数过多，请稍后再试。',
    formExpired: '表单已过期，请重新输入密码。',
    authorizeLink: '有授权密码？为本地址授权',
  },
} as const;

export function pageTexts(lang: PageLanguage) {
  return texts[lang];
}

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' };

function page(lang: PageLanguage, title: string, inner: string): string {
  return (
    `<!doctype html>\n<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>` +
    `<body style="font-family:sans-serif;max-width:40em;margin:4em auto;padding:0 1em"><h1>${escapeHtml(title)}</h1>${inner}</body></html>\n`
  );
}

/** A return URL the gateway may send a visitor back to: a path on this site, never another host or a gateway page. */
export function safeReturn(raw: string | null | undefined): string {
  if (!raw || raw.length > 4096 || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\') || raw.startsWith(pagePrefix)) return '/';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return '/';
  return raw;
}

export function verifyUrl(returnTo: string, ticket: string): string {
  return `${verifyPath}?r=${encodeURIComponent(returnTo)}&t=${encodeURIComponent(ticket)}`;
}

export function authorizeUrl(returnTo: string): string {
  return `${authorizePath}?r=${encodeURIComponent(returnTo)}`;
}

/** CC loose, redirect verification: a browser follows the 302 and gets its pass at the verify URL; a flood tool that does not follow redirects never does. */
export function renderVerifyRedirect(lang: PageLanguage, returnTo: string, ticket: string): RenderedResponse {
  const location = verifyUrl(returnTo, ticket);
  return { status: 302, headers: { ...headers, location }, body: page(lang, texts[lang].checkTitle, `<p><a href="${escapeHtml(location)}">${texts[lang].redirectText}</a></p>`) };
}

/** CC loose, click verification: a page whose button posts the ticket; 429 says what the visitor's address did. */
export function renderClickPage(lang: PageLanguage, returnTo: string, ticket: string): RenderedResponse {
  const t = texts[lang];
  const form =
    `<p>${t.checkText}</p><form method="post" action="${verifyPath}">` +
    `<input type="hidden" name="r" value="${escapeHtml(returnTo)}"><input type="hidden" name="t" value="${escapeHtml(ticket)}">` +
    `<button type="submit">${t.checkButton}</button></form>`;
  return { status: 429, headers, body: page(lang, t.checkTitle, form) };
}

export function renderVerifyExpired(lang: PageLanguage, returnTo: string): RenderedResponse {
  const t = texts[lang];
  return { status: 403, headers, body: page(lang, t.expiredTitle, `<p>${t.expiredText}</p><p><a href="${escapeHtml(returnTo)}">${t.back}</a></p>`) };
}

/** The authorization password form; `error` says why it is shown again. */
export function renderAuthorizeForm(
  lang: PageLanguage,
  options: { returnTo: string; token: string; minutes: number; status: number; error?: 'wrong' | 'tooMany' | 'formExpired' },
): RenderedResponse {
  const t = texts[lang];
  const error = options.error ? `<p role="alert" style="color:#b00">${t[options.error]}</p>` : '';
  const form =
    `${error}<p>${escapeHtml(t.authText(options.minutes))}</p><form method="post" action="${authorizePath}">` +
    `<input type="hidden" name="r" value="${escapeHtml(options.returnTo)}"><input type="hidden" name="token" value="${escapeHtml(options.token)}">` +
    `<label>${t.password} <input type="password" name="password" autocomplete="current-password" required maxlength="200"></label> ` +
    `<button type="submit">${t.authButton}</button></form>`;
  return { status: options.status, headers, body: page(lang, t.authTitle, form) };
}

/** 303 back to the page the visitor came for, with the gateway's cookie when one was earned. */
export function renderReturn(returnTo: string, setCookie?: string): RenderedResponse {
  const h: Record<string, string> = { ...headers, location: returnTo };
  if (setCookie) h['set-cookie'] = setCookie;
  return { status: 303, headers: h, body: '' };
}

export function renderNotFound(): RenderedResponse {
  return { status: 404, headers, body: page('en-US', '404 Not Found', '<p>Not found.</p>') };
}
