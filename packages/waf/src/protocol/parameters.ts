/**
 * Checks on the parsed parameters, request-wide: names that carry line breaks (CRS 921150/921160,
 * header injection through a name), names with text after an array index (921210, parsers split
 * them differently), letters written as `\u` escapes (920540, see checkUnicodeEscapes), `_method`
 * overrides (920650, see checkMethodOverride), ORM lookups that reach secret columns (934210/934220,
 * see checkOrmLookups), and session fixation (943100-943120): a session id planted through a link
 * or form from another site, or a cookie set by script.
 *
 * Severities (our choice): a line break in a name, a letter or digit right after an array index
 * (`foo[1]a`), a session id parameter arriving with a Referer
 * from another site, and a script that writes a cookie with `expires`/`domain` in a URL parameter
 * are 2, and so is a session id in the URL without Referer (a link in a mail: how fixation is
 * delivered), and so is a `_method` no form asks for. A session id in a body without Referer (API
 * clients) is 1.
 *
 * Not checked here, in either mode: how many parameters, how long a name or value, how large an
 * upload (CRS 920360-920400). Those are limits of one site (a CMS editor posts 200 KB of HTML, a
 * survey 300 fields), CRS itself leaves them unset by default, and the body size cap is the site's
 * own setting; a default that guessed them would break ordinary sites. Nor, in either mode, a
 * backslash before a letter (CRS 920460 `\c`): Windows paths (`C:\Users\chris`), regexes (`\d+`)
 * and LaTeX (`\cite`) are ordinary values, and the command detectors read backslashes inside
 * command words (`pa\ssw\d`); nor broken escapes in a form body (CRS 920240: `%1G`, `%w2`, a
 * trailing `%`): browsers escape every `%` they send, but `curl -d 'off=50%'` does not, and CRS's
 * own must-pass tests send the same broken bytes in a query.
 */
import { percentDecode } from '../decode/url.ts';
import type { RequestInput } from '../types.ts';
import { alnumHexCode } from './alnum-code.ts';
import { protocolHit, strongest, type ProtocolHit } from './hit.ts';
import { header, hostName, type RequestView } from './view.ts';

/** Session cookie names of the common frameworks (CRS 943110 and its CRS 4 additions). */
const sessionNames = new Set([
  'jsessionid', 'aspsessionid', 'asp.net_sessionid', 'phpsession', 'phpsessid', 'weblogicsession', 'session_id', 'session-id', 'sessionid',
  '_session_id', 'cfid', 'cftoken', 'cfsid', 'jservsession', 'jwsession', 'laravel_session', 'connect.sid', '_flask_session',
  'next-auth.session-token', '__host-next-auth.session-token', '__secure-next-auth.session-token', 'meteor_login_token', 'rack.session',
  'play_session', 'sails.sid', 'cakephp', 'ci_session', 'koa.sess', 'koa:sess', 'zend_session_id', 'shiny-token', '_rails_session',
]);

/**
 * Names too generic to be a framework's cookie: Stripe Checkout sends the browser back with
 * `?session_id=cs_…` from checkout.stripe.com, OAuth providers with their own session values.
 * Such a name is only suspicious, whatever the Referer.
 */
const genericSessionNames = new Set(['session_id', 'sessionid', 'session-id', '_session_id']);

function isSessionName(name: string): boolean {
  const lower = name.toLowerCase();
  // ASP's cookie carries a random suffix: ASPSESSIONIDQQGGQGPG
  return sessionNames.has(lower) || lower.startsWith('aspsessionid');
}

/** The parameter's own name: a name input's value is the raw name (a JSON key, not its path). */
function leafName(input: RequestInput): string {
  return input.value.includes('%') || input.value.includes('+') ? percentDecode(input.value, true) : input.value;
}

/** The last two labels: a naive registrable domain (app.example.com and api.example.com share one). */
function siteOf(host: string): string {
  return host.split('.').slice(-2).join('.');
}

/**
 * Where the Referer points: null without one, 'host' when it names another host, 'site' when it
 * names another site (registrable domain), false when it is this host.
 */
function refererForeignness(view: RequestView): 'host' | 'site' | false | null {
  const referer = header(view, 'referer');
  const host = header(view, 'host');
  if (referer === undefined || referer.trim() === '') return null;
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(referer.trim())?.[1];
  if (authority === undefined || host === undefined) return false;
  const from = hostName(authority);
  const to = hostName(host);
  if (from === to) return false;
  return siteOf(from) === siteOf(to) ? 'host' : 'site';
}

/** `/login`, `/user/signin`, `/auth`…: the last segment of the path names a sign-in page. */
const signInSegment = /\/(?:log-?in|log-?on|sign-?in|auth|authenticate)(?:\.[a-z]{2,5})?\/?$/i;

function isSignInPath(path: string): boolean {
  return signInSegment.test(path);
}

/**
 * Sec-Fetch-Mode says the browser sent this for a script or a subresource (fetch, XHR, sendBeacon,
 * an image), not for a link followed or a form submitted (`navigate`). Absent on older clients.
 */
function isScriptRequest(view: RequestView): boolean {
  const mode = header(view, 'sec-fetch-mode')?.trim().toLowerCase();
  return mode === 'cors' || mode === 'no-cors' || mode === 'same-origin';
}

function checkSessionFixation(view: RequestView, inputs: readonly RequestInput[]): ProtocolHit | null {
  for (const input of inputs) {
    if (input.location !== 'query_name' && input.location !== 'body_name') continue;
    const name = leafName(input);
    if (!isSessionName(name)) continue;
    const foreign = refererForeignness(view);
    const where = { location: input.location, name };
    // A session id in the URL arrives by a link: from another host's page (943110) or from a mail or
    // chat, without Referer (943120): both are how fixation is delivered. In a body, API clients
    // (no Referer) and a front end on a sibling host (app. → api.) post ids legitimately.
    const inQuery = input.location === 'query_name';
    if (genericSessionNames.has(name.toLowerCase())) {
      // `sessionId`/`session_id` is also what every analytics, chat and replay SDK names its own
      // visit counter in the beacons it sends from its customers' pages (another site's Referer,
      // always). No framework adopts such a name as its session anywhere but where a session is
      // opened: fixation is a browser sent to this site's sign-in with the id (CRS 943110's own
      // tests are all sign-in pages). Elsewhere the name fixes nothing; payment and OAuth returns
      // land on their own pages (success, callback). A request the browser marks as no navigation
      // and no form (Sec-Fetch-Mode cors/no-cors/same-origin: fetch, sendBeacon, an image) is a
      // script's request to an API, not a victim following a planted link.
      if (foreign === false || !isSignInPath(view.path) || isScriptRequest(view)) continue;
      const severity = foreign === 'site' ? 2 : 1;
      return protocolHit('protocol.session_fixation', severity, where, `${name} from ${foreign === null ? 'no Referer' : header(view, 'referer')}`);
    }
    if (foreign === 'site' || (inQuery && foreign === 'host')) return protocolHit('protocol.session_fixation', 2, where, `${name} with Referer ${header(view, 'referer')}`);
    if (foreign === null) return protocolHit('protocol.session_fixation', inQuery ? 2 : 1, where, `${name} without Referer`);
  }
  return null;
}

/** `document.cookie="sid=…; expires=…"` or `<meta http-equiv="Set-Cookie">`: a cookie planted by injected markup (CRS 943100). */
function checkCookieWrite(inputs: readonly RequestInput[]): ProtocolHit | null {
  for (const input of inputs) {
    const { location } = input;
    if (location !== 'query' && location !== 'body' && location !== 'cookie' && location !== 'header' && location !== 'path') continue;
    if (!/cookie/i.test(input.value)) continue;
    const value = percentDecode(input.value.length > 8192 ? input.value.slice(0, 8192) : input.value, location === 'query' || location === 'body');
    const m = /\.cookie\b[^;]{0,200};\W{0,20}(?:expires|domain)\W{0,20}=|\bhttp-equiv\W{1,20}set-cookie\b/i.exec(value);
    if (!m) continue;
    // A post about JavaScript may quote `document.cookie = "a=b; expires=…"`.
    const prose = location === 'body' && /\s/.test(value.trim());
    return protocolHit('protocol.cookie_write', prose ? 1 : 2, { location, name: input.name }, m[0]);
  }
  return null;
}

function checkNames(inputs: readonly RequestInput[]): ProtocolHit | null {
  let weak: ProtocolHit | null = null;
  for (const input of inputs) {
    if (input.location !== 'query_name' && input.location !== 'body_name') continue;
    const raw = input.value;
    const decoded = raw.includes('%') ? percentDecode(raw) : raw;
    if (/[\r\n]/.test(decoded)) {
      // A text body posted as a form (`curl -d @file`) ends its one bare "name" with a newline; a
      // break inside a name, or any in a URL, is written on purpose.
      const trailing = input.location === 'body_name' && /^[^\r\n]*[\r\n]+$/.test(decoded);
      if (!trailing) return protocolHit('protocol.name_line_break', 2, { location: input.location, name: input.name }, raw, 'crlf');
    }
    // foo[1]a: PHP reads `foo[1]`, other parsers the whole name (CRS 921210); `Items[0].Name` is ASP.NET's binding.
    // A letter or digit right after the index is written by no serializer (PHP, Rails, qs and
    // jQuery all close with `]` or go on with `[`): the two readings are the point, 2. Other
    // characters there (`a[0] copy`, `a[x]-1`) may be a hand-made name: 1.
    if (/\][^[\].=\]]/.test(decoded) && /^[^[\]]+\[[^\]]*\]/.test(decoded)) {
      if (/^[\w-]+(?:\[[^\]]*\])+[a-z0-9]/i.test(decoded)) return protocolHit('protocol.name_after_index', 2, { location: input.location, name: input.name }, raw);
      weak ??= protocolHit('protocol.name_after_index', 1, { location: input.location, name: input.name }, raw);
    }
  }
  return weak;
}

/** The verbs a form may ask for through `_method` (Rails, Laravel, Express's method-override). */
const overrideVerbs = new Set(['PUT', 'PATCH', 'DELETE', 'POST']);

/**
 * `_method` (CRS 920650). Rails and Laravel forms post `_method=PUT|PATCH|DELETE` in the body
 * (Rails in lower case), and Express's method-override documents `POST /resource?_method=DELETE`
 * (the form action of countless Express tutorials): both are how ordinary sites work, so a POST
 * asking for a REST verb is no finding in either mode, in the body or the query, however spelled;
 * strict is a new site's default and must not break them. What no form does (2):
 *  - a GET or HEAD that asks to be read as another verb: a link is all it takes, and SameSite=Lax
 *    cookies ride along on a top-level GET (CSRF past SameSite);
 *  - TRACE, TRACK, DEBUG, CONNECT (cross-site tracing, tunnels);
 *  - a POST asking to be read as a safe verb (GET, HEAD, OPTIONS): frameworks skip their CSRF
 *    check for safe verbs, while a handler shared by both verbs still acts on the body (Rails
 *    routing HEAD to GET actions was such a bypass); a form that wants a GET uses method="get";
 *  - WebDAV verbs and made-up names: verb tampering, a method the proxy's and the container's
 *    method rules do not list (a JSP answers any verb; a `<security-constraint>` covers only the
 *    verbs it names). WebDAV clients send their verbs on the request line, never through a form.
 * A REST verb spelled in percent escapes (`_method=%44%45%4C…`) is 1.
 */
function checkMethodOverride(view: RequestView, inputs: readonly RequestInput[]): ProtocolHit | null {
  for (const input of inputs) {
    if ((input.location !== 'query' && input.location !== 'body') || input.name !== '_method') continue;
    // Values arrive as sent: the verb is judged decoded, so `%44ELETE` on a GET is still a DELETE.
    const raw = input.value;
    const value = (raw.includes('%') || raw.includes('+') ? percentDecode(raw, true) : raw).trim().toUpperCase();
    if (!/^[A-Z]{3,10}$/.test(value) || value === view.method) continue;
    const where = { location: input.location, name: '_method' };
    const safeRequest = view.method === 'GET' || view.method === 'HEAD';
    if (safeRequest ? value !== 'GET' && value !== 'HEAD' : !overrideVerbs.has(value)) return protocolHit('protocol.method_override', 2, where, `${view.method} as ${raw}`);
    // A form writes its verb as a hidden input's plain value and browsers never escape a letter:
    // `_method=%44%45%4C%45%54%45` is spelled for a front-end rule that matches `_method=DELETE`
    // literally while the framework decodes it. The verb itself is one a form may ask for: 1.
    if (escapedLetter.test(raw)) return protocolHit('protocol.method_override', 1, where, `${view.method} as _method=${raw}`);
  }
  return null;
}

/** `%44`: a letter or digit percent-encoded. */
const escapedLetter = new RegExp(`%${alnumHexCode}`, 'i');

/** Django's field lookups (and the JSONField / ArrayField ones) that end a `field__lookup` name. */
const ormLookups = new Set([
  'exact', 'iexact', 'contains', 'icontains', 'in', 'gt', 'gte', 'lt', 'lte', 'startswith', 'istartswith', 'endswith', 'iendswith',
  'range', 'isnull', 'regex', 'iregex', 'has_key', 'has_keys', 'has_any_keys', 'contained_by', 'overlap', 'len', 'search',
]);
/** Lookups that test a value a piece at a time: with them a filter reads a hidden column letter by letter. */
const probingLookups = new Set(['startswith', 'istartswith', 'endswith', 'iendswith', 'regex', 'iregex', 'contains', 'icontains']);
/** Columns no filter a site offers is about. */
const secretField = /^(?:password|passwd|pwd|password_hash|hashed_password|secret|secret_key|api_key|apikey|token|auth_token|access_token|refresh_token|reset_token|session_key|otp|otp_secret|totp_secret|private_key|salt)$/;

/**
 * ORM filter injection ("ORM leak", CRS 934210/934220): Django, Prisma-style and DRF filter
 * backends turn a parameter name `a__b__c__startswith` into a query across relations, so a name
 * that reaches a password or token column (`created_by__user__password__startswith=p`,
 * `password__isnull=true`) reads it one character per request: 2. Django's own admin and
 * django-filter put such names in their URLs (`author__id__exact=3`, `price__gte=10`,
 * `author__name__icontains=x`), so a lookup alone is no finding in either mode; a probing lookup
 * after two or more relation hops is past what filter forms offer: 1.
 */
function checkOrmLookups(inputs: readonly RequestInput[]): ProtocolHit | null {
  let weak: ProtocolHit | null = null;
  for (const input of inputs) {
    if (input.location !== 'query_name' && input.location !== 'body_name') continue;
    const name = input.value;
    if (name.length > 200 || !name.includes('__')) continue;
    const parts = name.toLowerCase().split('__');
    const lookup = parts[parts.length - 1]!;
    if (parts.length < 2 || !ormLookups.has(lookup) || !parts.every((p) => /^[a-z][a-z0-9_]*$/.test(p))) continue;
    const fields = parts.slice(0, -1);
    const where = { location: input.location, name };
    if (fields.some((f) => secretField.test(f))) return protocolHit('protocol.orm_lookup', 2, where, name);
    if (fields.length >= 3 && probingLookups.has(lookup)) weak ??= protocolHit('protocol.orm_lookup', 1, where, name);
  }
  return weak;
}

/** `\u0061`: a letter or digit written as a JavaScript/JSON escape. */
const escapedAlnum = new RegExp(`\\\\u00${alnumHexCode}`, 'i');
/** Such an escape inside a word (`\u0061lert`, `ev\u0061l`), or two of them. */
const escapedWord = new RegExp(`[a-z0-9]\\\\u00${alnumHexCode}|\\\\u00${alnumHexCode}(?:[a-z0-9]|\\\\u00)`, 'i');

/**
 * Letters spelled as `\uXXXX` escapes in a parameter (CRS 920540): JSON and JavaScript encoders
 * escape quotes, control and non-ASCII characters (Go and Rails also `<`, `>`, `&`), never a letter
 * or a digit, so a word with one is written for a back end that unescapes what the filter read
 * escaped. A value with spaces is prose (a post about escapes): not checked; an escape standing
 * alone (`\u0041`, searched for) is not a word.
 */
function checkUnicodeEscapes(view: RequestView, inputs: readonly RequestInput[]): ProtocolHit | null {
  // A JSON API passes JSON documents along as strings (a webhook payload, a stored setting), and
  // their escapes with them: there the value detectors read the unescaped text instead.
  let jsonApi: boolean | null = null;
  for (const input of inputs) {
    const { location } = input;
    if ((location !== 'query' && location !== 'body') || !input.value.includes('u00') || input.value.length > 8192) continue;
    jsonApi ??= /\bjson\b|\+json/i.test(header(view, 'content-type') ?? '');
    if (jsonApi || input.name.startsWith('json[')) continue;
    const value = input.value.includes('%') || input.value.includes('+') ? percentDecode(input.value, true) : input.value;
    if (/\s/.test(value) || !escapedAlnum.test(value)) continue;
    if (escapedWord.test(value)) return protocolHit('protocol.unicode_escape_word', 2, { location, name: input.name }, value);
  }
  return null;
}

export function checkParameters(view: RequestView, inputs: readonly RequestInput[]): ProtocolHit | null {
  return strongest([
    checkNames(inputs),
    checkSessionFixation(view, inputs),
    checkCookieWrite(inputs),
    checkMethodOverride(view, inputs),
    checkOrmLookups(inputs),
    checkUnicodeEscapes(view, inputs),
  ]);
}
