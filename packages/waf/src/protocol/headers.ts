/**
 * Header fields (CRS 920210, 920270/920271, 920280, 920290, 920300-920330, 920350, 920450/920451,
 * 920510, 920520/920521, 920600, 920660, 920190/920200, 921230, 921250, and httpoxy): which are missing, empty, doubled
 * or out of place.
 *
 * Severities (the spec is silent; our choice):
 * - 2: an empty or doubled Host (RFC 9112 §3.2: a client MUST send the target's authority, once),
 *   markup in Host or X-Forwarded-Host, `Proxy:` (httpoxy, CVE-2016-5385: CGI turns it into
 *   HTTP_PROXY), X-Original-URL naming another path, a Range whose overlapping parts are a denial of
 *   service (CVE-2011-3192), a charset in Accept other than UTF-8/Latin-1 (EBCDIC, UTF-7, UTF-16:
 *   encodings filters and content sniffing read differently), `Request-Range` (CRS 920660), an
 *   EBCDIC `X-Up-Devcap-Post-Charset` from an Openwave ("UP") User-Agent (CRS 920490).
 * - 1: what real clients do send: no Host (HTTP/1.0), WebDAV headers, compressed request bodies,
 *   an empty User-Agent, a Content-Range that does not parse (CRS 920450). Also what no client
 *   sends but harms nobody by itself, the marks of a hand-made request or a parser probe: a byte
 *   range list with a part that is no range or crowded small parts (CRS 920200), a Connection
 *   token twice (920210), Cache-Control directives no registry lists or runs of empty elements
 *   (920510), Accept-Encoding codings no registry or shipped client knows (920521).
 * - Not findings at all, though CRS flags them: a Host that is an IP address (an administrator
 *   opening the site by its address, monitoring) and no User-Agent (load-balancer health checks such
 *   as HAProxy's `option httpchk`). Strict is the default block mode, and blocking these there
 *   would take sites down for their own operators. Neither is an attack by itself.
 *   A missing or empty Accept is not recorded either (CRS 920300-920311): Go, Python and many API
 *   clients omit it, iOS apps (CFNetwork) send it empty. A Range without a unit or made void by
 *   last < first is ignored by the server, so it is not recorded either (checkRange says more),
 *   nor are a Connection token repeated across two Connection lines (a proxy's `add-header`),
 *   response directives in Cache-Control (CRS 920510 flags `private`: single-page apps copy the
 *   "disable caching" recipe, `no-cache, no-store, must-revalidate`, into their requests), or up
 *   to ten Range parts on a PDF (PDF readers ask for several at once; the Apache killer's shape,
 *   overlapping parts by the dozen, stays 2).
 */
import { percentDecode } from '../decode/url.ts';
import { protocolHit, strongest, type ProtocolHit } from './hit.ts';
import { escapedControlByte } from './escaped-control.ts';
import { header, type RequestView } from './view.ts';

const where = (name: string) => ({ location: 'header' as const, name });

function checkHost(view: RequestView): ProtocolHit | null {
  const hosts = view.headers.get('host');
  if (!hosts) return protocolHit('protocol.host_missing', 1, where('Host'), 'no Host header');
  if (hosts.length > 1) return protocolHit('protocol.host_repeated', 2, where('Host'), hosts.join(', '));
  const host = hosts[0]!.trim();
  if (host === '') return protocolHit('protocol.host_empty', 2, where('Host'), 'empty Host header');
  if (!/^(?:[a-z0-9_.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i.test(host)) {
    // Markup, paths or credentials in Host poison links the application builds from it (password-reset poisoning).
    return protocolHit('protocol.host_syntax', /[\s<>"'`/\\@{}]/.test(host) ? 2 : 1, where('Host'), host);
  }
  return null;
}

/** Structured-field booleans (RFC 8941) the browser writes itself: `?0` or `?1`, nothing else. */
const browserBooleans = ['sec-fetch-user', 'sec-ch-ua-mobile'];

function checkClientHeaders(view: RequestView): ProtocolHit | null {
  const agent = header(view, 'user-agent');
  if (agent !== undefined && agent.trim() === '') return protocolHit('protocol.user_agent_empty', 1, where('User-Agent'), 'empty User-Agent header');
  // Pages cannot set Sec-* headers, so another value was written by hand (CRS 920275): a client
  // posing as a browser. Harmless to the site by itself, hence only suspicious.
  for (const name of browserBooleans) {
    const value = header(view, name);
    if (value !== undefined && !/^\s*\?[01]\s*$/.test(value)) return protocolHit('protocol.client_header_forged', 1, where(name), `${name}: ${value}`);
  }
  return null;
}

/** Charsets a response may be asked for without risk: what browsers and API clients use. */
const ebcdicOrUtf7 = /^(?:utf-?7|(?:x-)?ebcdic[\w-]*|(?:ibm|cp|csibm)0\d\d|(?:ibm|cp|csibm)0*(?:37|273|277|278|280|284|285|290|297|420|423|424|500|833|836|838|870|871|875|880|905|918|924|930|933|935|937|939|1025|1026|1047|1112|1122|1123|1140|1141|1142|1143|1144|1145|1146|1147|1148|1149|1364|1371|1388|1390|1399))$/i;

export function dangerousCharset(charset: string): boolean {
  return ebcdicOrUtf7.test(charset.trim().replace(/^"|"$/g, ''));
}

/** `Accept: text/html;charset=CP1026`: asks the server to answer in an encoding filters cannot read. */
function checkAcceptCharset(view: RequestView): ProtocolHit | null {
  const accept = header(view, 'accept');
  if (accept && /charset/i.test(accept)) {
    for (const m of accept.matchAll(/charset\s*=\s*("?)([^";,\s]+)\1/gi)) {
      // API clients write `application/json; charset=utf-8`; anything else asks for an encoding that
      // response filters and the browser's sniffing read differently (CRS 920600).
      if (!/^(?:utf-?8|us-ascii|iso-?8859-15?|windows-1252)$/i.test(m[2]!)) return protocolHit('protocol.accept_charset', 2, where('Accept'), accept);
    }
  }
  const acceptCharset = header(view, 'accept-charset');
  if (acceptCharset !== undefined) {
    for (const part of acceptCharset.split(',')) {
      if (dangerousCharset(part.split(';')[0]!)) return protocolHit('protocol.accept_charset', 2, where('Accept-Charset'), acceptCharset);
    }
    // Browsers stopped sending Accept-Charset a decade ago.
    return protocolHit('protocol.restricted_header', 1, where('Accept-Charset'), acceptCharset);
  }
  return null;
}

/**
 * Headers with no business on a request to a web site. `Proxy` is httpoxy; the WebDAV ones and
 * request Content-Encoding/Content-Range have real users (Nextcloud, resumable uploads).
 */
function checkRestrictedHeaders(view: RequestView): ProtocolHit | null {
  const proxy = header(view, 'proxy');
  if (proxy !== undefined) return protocolHit('protocol.httpoxy', 2, where('Proxy'), proxy);
  // Openwave's WAP header: for a User-Agent starting "UP" (Openwave's browser) ASP.NET decodes the
  // form body in the charset it names, so an EBCDIC one (ibm500) hides the whole body from filters
  // that read bytes. With any other User-Agent ASP.NET ignores it, and so do we.
  const postCharset = header(view, 'x-up-devcap-post-charset');
  if (postCharset !== undefined && /^\s*up/i.test(header(view, 'user-agent') ?? '') && dangerousCharset(postCharset)) {
    return protocolHit('protocol.accept_charset', 2, where('X-Up-Devcap-Post-Charset'), postCharset);
  }
  // Content-Encoding: protocol/content-encoding.ts (the body is inflated and read).
  for (const name of ['lock-token', 'if']) {
    const value = header(view, name);
    if (value !== undefined) return protocolHit('protocol.restricted_header', 1, where(name), `${name}: ${value}`);
  }
  // Content-Range on a request belongs to a resumable upload (`bytes 0-99/1000`); on a GET the
  // server ignores it. One that does not parse is a probe of how the server reads it.
  const contentRange = header(view, 'content-range');
  if (contentRange !== undefined && !/^\s*bytes\s+(?:\d+-\d+|\*)\/(?:\d+|\*)\s*$/i.test(contentRange)) {
    return protocolHit('protocol.restricted_header', 1, where('Content-Range'), contentRange);
  }
  return null;
}

/**
 * Headers a front proxy sets, sent by the client instead: `X-Original-URL` / `X-Rewrite-URL` make
 * Symfony, Zend and IIS route by them (an access-control bypass when they name another path than
 * the request line); a forwarded host with markup or a path poisons the links the application
 * builds; a method override to a debugging verb dodges method filters.
 */
function checkProxyHeaders(view: RequestView): ProtocolHit | null {
  for (const name of ['x-original-url', 'x-rewrite-url']) {
    const value = header(view, name);
    if (value === undefined) continue;
    // Compared decoded: a proxy that set it may have spelled the same path differently.
    if (percentDecode(value.trim().split('?')[0]!) !== percentDecode(view.path)) return protocolHit('protocol.url_override', 2, where(name), `${name}: ${value}`);
  }
  const forwardedHost = header(view, 'x-forwarded-host');
  if (forwardedHost !== undefined && /[\s<>"'`/\\@{}]/.test(forwardedHost.trim())) return protocolHit('protocol.forwarded_host', 2, where('X-Forwarded-Host'), forwardedHost);
  for (const name of ['x-http-method-override', 'x-http-method', 'x-method-override']) {
    const value = header(view, name)?.trim().toUpperCase();
    if (value !== undefined && /^(?:TRACE|TRACK|DEBUG|CONNECT)$/.test(value)) return protocolHit('protocol.method_override', 1, where(name), `${name}: ${value}`);
  }
  return null;
}

/**
 * Connection (CRS 920210): `keep-alive, close` together (no client means both), or one token twice
 * in one field line (`close, close`). A proxy must drop the client's Connection field before it
 * forwards the request (RFC 9110 §7.6.1), so none appends its own token to it; a second Connection
 * line (a sloppy proxy's `add-header`) is not counted. Both are hand-made requests, harmless by
 * themselves: 1.
 */
function checkConnection(view: RequestView): ProtocolHit | null {
  const values = view.headers.get('connection');
  if (!values) return null;
  const tokens = values.join(',').toLowerCase().split(',').map((t) => t.trim());
  if (tokens.includes('keep-alive') && tokens.includes('close')) return protocolHit('protocol.connection_conflict', 1, where('Connection'), values.join(', '));
  for (const value of values) {
    const line = value.toLowerCase().split(',').map((t) => t.trim()).filter((t) => t !== '');
    if (new Set(line).size < line.length) return protocolHit('protocol.connection_repeated', 1, where('Connection'), value);
  }
  return null;
}

/**
 * Range and the obsolete Request-Range (RFC 9110 §14.2): `bytes=first-last,…`. Severities:
 * - 2: dozens of overlapping parts, the Apache killer (CVE-2011-3192).
 * - 1 (CRS 920200): a `bytes=` list with a part that is no range at all (`-`, `1-2-3`, `x`): no
 *   client library writes one; and six or more parts for anything but a PDF when some of them
 *   overlap, touch or leave gaps shorter than a multipart part's own headers (~80 bytes). RFC 9110
 *   §14.2 lets a server refuse exactly that shape, and no client asks for it: download tools ask
 *   for one range per connection, zsync for blocks far apart, browsers for one range. PDF readers
 *   (byte serving of linearized files) do ask for many small parts at once, so a `.pdf` keeps up
 *   to ten parts unrecorded, as do five parts or fewer of anything (CRS 920202, six parts of a
 *   PDF at paranoia 4, is not followed: its must-pass twin sends the very same request).
 * - Not recorded: a Range without a unit (`Range: test`, `Range: 0-1`: no range at all, the
 *   server ignores it), a part whose last byte is before its first (the whole header is then
 *   void, RFC 9110 §14.1.1: CRS's own PDF tests send such), and empty list elements (recipients
 *   must skip them, RFC 9110 §5.6.1).
 */
function checkRange(view: RequestView): ProtocolHit | null {
  for (const name of ['range', 'request-range']) {
    const value = header(view, name);
    if (value === undefined) continue;
    const where_ = where(name === 'range' ? 'Range' : 'Request-Range');
    const m = /^\s*([a-z]+)\s*=\s*(.*)$/i.exec(value);
    if (!m) continue;
    const specs = m[2]!.split(',').filter((spec) => spec.trim() !== '');
    if (specs.length === 0) continue;
    let invalid = false;
    let malformed = false;
    const starts = new Set<string>();
    let repeatedStarts = 0;
    const parts: { first: number; last: number }[] = [];
    for (const spec of specs) {
      const r = /^\s*(\d*)\s*-\s*(\d*)\s*$/.exec(spec);
      if (!r || (r[1] === '' && r[2] === '')) {
        malformed = true;
        continue;
      }
      if (r[1] !== '' && r[2] !== '' && Number(r[2]) < Number(r[1])) invalid = true;
      if (starts.has(r[1]!)) repeatedStarts++;
      starts.add(r[1]!);
      if (r[1] !== '') parts.push({ first: Number(r[1]), last: r[2] === '' ? Infinity : Number(r[2]) });
    }
    // Overlapping parts from one offset: the Apache killer's shape (each part is served in full).
    if (specs.length > 50 || repeatedStarts >= 5) return protocolHit('protocol.range_flood', 2, where_, value);
    if (m[1]!.toLowerCase() !== 'bytes') continue; // a unit the server does not know: ignored
    if (malformed) return protocolHit('protocol.range_syntax', 1, where_, value);
    // last < first makes the whole header void (RFC 9110 §14.1.1): the server ignores it.
    if (invalid) continue;
    if (specs.length > 10) return protocolHit('protocol.range_many', 1, where_, value);
    if (specs.length >= 6 && !/\.pdf$/i.test(percentDecode(view.path)) && crowded(parts)) return protocolHit('protocol.range_many', 1, where_, value);
  }
  return null;
}

/** Part headers of a multipart/byteranges answer: a gap shorter than them is cheaper sent than skipped. */
const rangeGapWorthSkipping = 80;

/** Do some of the parts overlap, touch, or leave a gap no client would skip? */
function crowded(parts: readonly { first: number; last: number }[]): boolean {
  const sorted = [...parts].sort((a, b) => a.first - b.first);
  let reach = -Infinity; // the last byte any earlier part asks for
  for (const part of sorted) {
    if (part.first <= reach + rangeGapWorthSkipping) return true;
    reach = Math.max(reach, part.last);
  }
  return false;
}

/**
 * `Request-Range`: Netscape 3 and MSIE 3's name for Range, sent by no client in use for twenty
 * years, yet Apache still honours it — so it reaches the back end past any limit put on Range
 * (the Apache killer, CVE-2011-3192, used it for that). Present at all, whatever its value: 2.
 */
function checkRequestRange(view: RequestView): ProtocolHit | null {
  const value = view.headers.get('request-range');
  return value ? protocolHit('protocol.request_range', 2, where('Request-Range'), value.join(', ')) : null;
}

/** `token`, `token=token` or `token="quoted"`: one element of a Cache-Control list (RFC 9111 §5.2). */
const cacheDirective = /^([!#$%&'*+.^_`|~0-9a-z-]+)(?:\s*=\s*(?:[!#$%&'*+.^_`|~0-9a-z-]+|"(?:[^"\\]|\\.)*"))?$/i;

/**
 * The IANA Cache Directive Registry (request and response directives alike: single-page apps copy
 * the "disable caching" recipe, `no-cache, no-store, must-revalidate, private`, into their
 * requests), and IE's `pre-check`/`post-check`, which the same recipe carries.
 */
const cacheDirectives = new Set([
  'max-age', 'max-stale', 'min-fresh', 'no-cache', 'no-store', 'no-transform', 'only-if-cached', 'stale-if-error',
  'stale-while-revalidate', 'must-revalidate', 'must-understand', 'proxy-revalidate', 'private', 'public', 's-maxage', 'immutable',
  'pre-check', 'post-check',
]);

/**
 * Cache-Control (CRS 920510): a list of registered directives. A name no registry, browser or
 * library writes (`foo=bar`), an element that is no directive, or a run of empty elements
 * (`max-age=1,,,max-stale=2`: senders must not write them, RFC 9110 §5.6.1) is a request written
 * by hand or a probe of a cache's parser; the origin ignores what it does not know, so: 1.
 */
function checkCacheControl(view: RequestView): ProtocolHit | null {
  const values = view.headers.get('cache-control');
  if (!values) return null;
  for (const value of values) {
    if (value.trim() === '') continue;
    const elements = value.split(',').map((e) => e.trim());
    // One empty element (a trailing comma from a join) is tolerated; two in a row are not.
    const emptyRun = elements.some((e, i) => e === '' && elements[i + 1] === '');
    // (A quoted value with a comma inside, `no-cache="a, b"`, is a response's; it fails here too.)
    const bad = elements.find((e) => e !== '' && !cacheDirectives.has(cacheDirective.exec(e)?.[1]!.toLowerCase() ?? ''));
    if (emptyRun || bad !== undefined) return protocolHit('protocol.cache_control', 1, where('Cache-Control'), value);
  }
  return null;
}

/**
 * Content codings a client may ask for: IANA's HTTP Content Coding Registry (with Chrome's
 * dictionary codings `dcb`/`dcz`) and the ones shipped clients still send: `sdch` (old Chrome),
 * `bzip2`/`bzip`/`lzma`/`xz` (text browsers: w3m, Lynx, ELinks), `peerdist` (Windows
 * BranchCache), `lz4`/`snappy` (RPC clients); and two widespread misuses: PHP's
 * `CURLOPT_ENCODING => 'UTF-8'` (a charset taken for a coding) and the copied scraping recipe's
 * `Accept-Encoding: none`.
 */
const contentCodings = new Set([
  '*', 'aes128gcm', 'br', 'compress', 'dcb', 'dcz', 'deflate', 'exi', 'gzip', 'identity', 'pack200-gzip', 'x-compress', 'x-gzip', 'zstd',
  'sdch', 'bzip2', 'x-bzip2', 'bzip', 'lzma', 'lzma2', 'xz', 'peerdist', 'lz4', 'snappy', 'utf-8', 'utf8', 'none',
]);

/** `coding` with optional `;q=0.5`-style parameters. */
const acceptedCoding = /^([!#$%&'*+.^_`|~0-9a-z-]+)\s*(?:;\s*[!#$%&'*+.^_`|~0-9a-z-]+\s*=\s*[!#$%&'*+.^_`|~0-9a-z-]+\s*)*$/i;

/**
 * Accept-Encoding (CRS 920520/920521): browsers send about 30 characters, hundreds are a parser
 * probe; a coding that is in no registry and no shipped client (`foobar`), or an element that is
 * no coding, is a hand-made request. The server ignores codings it does not know, so both are 1.
 */
function checkAcceptEncoding(view: RequestView): ProtocolHit | null {
  const encoding = header(view, 'accept-encoding');
  if (encoding === undefined) return null;
  if (encoding.length > 100) return protocolHit('protocol.accept_encoding_long', 1, where('Accept-Encoding'), encoding);
  for (const element of encoding.split(',')) {
    if (element.trim() === '') continue;
    const coding = acceptedCoding.exec(element.trim())?.[1]?.toLowerCase();
    if (coding === undefined || !contentCodings.has(coding)) return protocolHit('protocol.accept_encoding_unknown', 1, where('Accept-Encoding'), encoding);
  }
  return null;
}

/**
 * `$Version=1` cookies (RFC 2109) make some servers (Tomcat, Jetty, Undertow) read quoted values
 * across `;` (cookie smuggling, CRS 921250). No browser sends `$Version` any more, so it alone is
 * odd (1); with a quoted value that runs over a `;` the other cookies it swallows are hidden from
 * whatever reads the header the RFC 6265 way (a WAF, a proxy's session affinity): 2.
 */
function checkCookieVersion(view: RequestView): ProtocolHit | null {
  const cookie = header(view, 'cookie');
  if (cookie === undefined || !/^\s*\$version\s*=/i.test(cookie)) return null;
  const smuggles = /=\s*\\?"[^"]*;[^"]*"/.test(cookie);
  return protocolHit(smuggles ? 'protocol.cookie_smuggling' : 'protocol.cookie_v1', smuggles ? 2 : 1, where('Cookie'), cookie);
}

/**
 * Escaped bytes in the header values applications URL-decode. `%00` in any header: C code that
 * reads the decoded value stops there, the filter did not (CRS 920270): 2 (1 in a cookie). Another
 * control byte in a cookie or Referer (CRS 920271): 1.
 */
function checkHeaderBytes(view: RequestView): ProtocolHit | null {
  let weak: ProtocolHit | null = null;
  for (const [name, values] of view.headers) {
    for (const value of values) {
      if (!value.includes('%')) continue;
      // (A cookie may hold a URL-encoded PHP serialize() whose private members carry NULs: 1 there.)
      if (value.includes('%00')) {
        if (name === 'host') continue; // checkHost weighs every odd byte of Host
        if (name !== 'cookie') return protocolHit('protocol.nul_byte', 2, where(name), `${name}: ${value}`);
        weak ??= protocolHit('protocol.nul_byte', 1, where(name), `${name}: ${value}`);
      }
      if ((name === 'cookie' || name === 'referer') && escapedControlByte.test(value)) weak ??= protocolHit('protocol.control_char', 1, where(name), `${name}: ${value}`);
    }
  }
  return weak;
}

export function checkHeaders(view: RequestView): ProtocolHit | null {
  return strongest([
    checkHost(view),
    checkRestrictedHeaders(view),
    checkProxyHeaders(view),
    checkAcceptCharset(view),
    checkRange(view),
    checkRequestRange(view),
    checkConnection(view),
    checkCacheControl(view),
    checkAcceptEncoding(view),
    checkCookieVersion(view),
    checkClientHeaders(view),
    checkHeaderBytes(view),
  ]);
}
