/**
 * The request line (CRS 920100, 920220, 920230, 920260, 920270/920271, 920610, 921190, 921240): the
 * method token, the shape of the target, and bytes no client puts in a URL.
 *
 * Severities (the spec is silent; our choice): 2 where the RFC says a client MUST NOT and no client
 * does (a malformed method or target) or where the shape is an exploit (NUL, a line break in the
 * path as in PHP-FPM's CVE-2019-11043, `%uFFxx` full-width evasion, mod_proxy's `unix:…|http://`).
 * 1 where sloppy but real clients go: a bare `%` ("50%off" typed into the address bar), IIS `%u`
 * escapes from old JavaScript `escape()`, an absolute-form target (forward-proxy style), TRACE, and a
 * `#fragment` (a MUST NOT, but the server ignores it), and an escaped control byte in the query
 * (`?q=a%03`), as in the path. (CRS's must-pass set sends one in ordinary text, `…is%020not`, a
 * typo for `%20`; strict refuses it, loose passes it.)
 *
 * Byte ranges left out on purpose, in both modes (strict is a new site's default):
 * - escaped bytes 0x80-0xFF that are not UTF-8 (CRS 920250's lone `%c0` or cut `%E2%A3`, 920272's
 *   `%80`/`%FF`): forms of sites still in a legacy charset send them as text (windows-1251 `я` is
 *   `%FF`, windows-1252 `€` is `%80`, Latin-1 `À` is `%C0`), and a CRS must-pass test puts `%FF`
 *   in a path. Overlong forms stay findings where they do a lenient decoder's work (decode/overlong.ts
 *   says where: windows-1251 `АЇ`, as in `УКРАЇНА`, is the same C0 AF as an overlong `/`).
 *   Out-of-range forms (`%F5%80%BF%BF`, past U+10FFFF) decode to no ASCII in any decoder, so
 *   they hide nothing from a filter, and windows-1251 Ukrainian text writes the same bytes (`ції»` is F6 B3 BF BB);
 * - printable ASCII CRS 920272-920274 narrow further at paranoia 3-4: `%` (50% off), space, `<`,
 *   backtick are text, and the value detectors judge them in context.
 */
import { findOverlongForms } from '../decode/overlong.ts';
import { percentDecode } from '../decode/url.ts';
import { alnumHexCode } from './alnum-code.ts';
import { escapedControlByte } from './escaped-control.ts';
import { protocolHit, strongest, type ProtocolHit } from './hit.ts';
import { header, hostName, type RequestView } from './view.ts';

const path = { location: 'path' as const };

/** What web sites serve: REST verbs and WebDAV (Nextcloud, SharePoint, CalDAV). */
const siteMethods = new Set([
  'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS',
  'PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'REPORT', 'SEARCH', 'MKCALENDAR', 'ACL',
]);

/**
 * Registered methods are upper-case letters (and `-`, as in M-SEARCH); anything else is a probe.
 * Which methods a site accepts is the policy's "request types denied" (the admin's list): CRS's
 * GET/HEAD/POST/OPTIONS default would refuse WordPress's REST API, so here a method outside the
 * REST and WebDAV verbs is only suspicious (CRS 911100).
 */
function checkMethod(method: string): ProtocolHit | null {
  if (!/^[A-Z][A-Z-]{1,19}$/.test(method)) return protocolHit('protocol.method_syntax', 2, path, method);
  // TRACE/TRACK echo the request (cross-site tracing); DEBUG is IIS's remote debugging verb.
  if (method === 'TRACE' || method === 'TRACK' || method === 'DEBUG') return protocolHit('protocol.method_debug', 1, path, method);
  if (!siteMethods.has(method) && method !== 'CONNECT') return protocolHit('protocol.method_unusual', 1, path, method);
  return null;
}

function checkTargetForm(view: RequestView): ProtocolHit | null {
  const t = view.target;
  if (t.startsWith('/')) return null;
  if (t === '*' && view.method === 'OPTIONS') return null;
  if (view.method === 'CONNECT' && /^[\w.-]+:\d{1,5}$/.test(t)) return null; // authority form, CONNECT's own
  // Absolute form: what a forward proxy receives; a reverse proxy's clients send origin form. The
  // server must route by the target's authority and ignore Host (RFC 9112 §3.2.2), so a Host that
  // names another site is the routing/cache-poisoning trick, not a proxy's habit.
  const authority = /^https?:\/\/([^/?#\s]+)(?:[/?]|$)/i.exec(t)?.[1];
  if (authority !== undefined) {
    const host = header(view, 'host');
    if (host !== undefined && host.trim() !== '' && hostName(host) !== hostName(authority)) return protocolHit('protocol.absolute_target_host', 2, path, `${t} with Host ${host}`);
    return protocolHit('protocol.absolute_target', 1, path, t);
  }
  return protocolHit('protocol.target_syntax', 2, path, t);
}

/** Walks the raw target once: fragments, NULs, control bytes and broken percent escapes. */
function checkTargetBytes(view: RequestView): ProtocolHit | null {
  const t = view.target;
  const queryStart = view.path.length;
  let weak: ProtocolHit | null = null;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    // RFC 9112 §3.2: no fragment in the target; harmless though (the server ignores it), so only suspicious.
    if (c === 35 /* # */) weak ??= protocolHit('protocol.fragment', 1, path, t.slice(i, i + 40));
    if (c === 0) return protocolHit('protocol.nul_byte', 2, where(i, queryStart), t);
    if (c < 32 || c === 127) weak ??= protocolHit('protocol.control_char', 1, where(i, queryStart), t);
    if (c !== 37 /* % */) continue;
    const pair = t.slice(i + 1, i + 3);
    if (/^[0-9a-fA-F]{2}$/.test(pair)) {
      if (pair === '00') return protocolHit('protocol.nul_byte', 2, where(i, queryStart), t.slice(Math.max(0, i - 40), i + 3));
      continue;
    }
    const u = /^[uU]([0-9a-fA-F]{4})/.exec(t.slice(i + 1, i + 6));
    if (u) {
      // %uFF01-%uFF5E: full-width ASCII, which best-fit mapping turns back into '<', '/', '.'…
      if (/^ff[0-5]/i.test(u[1]!)) return protocolHit('protocol.fullwidth_escape', 2, where(i, queryStart), t.slice(i, i + 6));
      weak ??= protocolHit('protocol.unicode_escape', 1, where(i, queryStart), t.slice(i, i + 6));
      continue;
    }
    // A bare '%' ("50%off") stays literal in every server: harmless, not recorded.
  }
  return weak;
}

function where(index: number, queryStart: number): { location: 'path' | 'query' } {
  return { location: index < queryStart ? 'path' : 'query' };
}

/**
 * Overlong UTF-8 in the target, weighed in context by decode/overlong.ts (legacy-charset text such
 * as windows-1251 `УКРАЇНА` writes the same bytes as an overlong `/` and is not recorded).
 */
function checkOverlong(view: RequestView): ProtocolHit | null {
  const t = view.target;
  let weak: ProtocolHit | null = null;
  for (const form of findOverlongForms(t)) {
    if (form.weight === 0) continue;
    const hit = protocolHit('protocol.overlong_utf8', form.weight, { location: form.start < view.path.length ? 'path' : 'query' }, t.slice(Math.max(0, form.start - 20), form.end + 20));
    if (form.weight === 2) return hit;
    weak ??= hit;
  }
  return weak;
}

/**
 * Letters or digits still percent-encoded after one decoding (`%2573%256F` and `%25%37%33%25%36%46`
 * both decode to `%73%6F`, which is `so`): encoders escape only what a URL cannot carry and never a
 * letter even once, so a word spelled this way twice over is made for a decoder that runs more often
 * than the filter did (CRS 920230). Double-encoded reserved characters (`%253A%252F` in a nested
 * redirect URL) are ordinary and not counted; three letters in a row make a word.
 */
const encodedWord = new RegExp(`(?:%${alnumHexCode}){3}`, 'i');

function checkMultipleEncoding(view: RequestView): ProtocolHit | null {
  if (!view.target.includes('%25')) return null;
  const once = percentDecode(view.target);
  const m = encodedWord.exec(once);
  if (!m) return null;
  const inPath = percentDecode(view.path).length > m.index;
  return protocolHit('protocol.multiple_encoding', 2, { location: inPath ? 'path' : 'query' }, once.slice(m.index, m.index + 60));
}

/** A line break (or other control byte) once the path is decoded: no URL has one. */
function checkDecodedPath(view: RequestView): ProtocolHit | null {
  if (!view.path.includes('%')) return null;
  const decoded = percentDecode(view.path);
  const nl = decoded.search(/[\r\n]/);
  if (nl >= 0) return protocolHit('protocol.path_line_break', 2, path, view.path);
  // eslint-disable-next-line no-control-regex
  if (/[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(decoded)) return protocolHit('protocol.control_char', 1, path, view.path);
  return null;
}

/**
 * An escaped control byte other than tab and line breaks in the query (`?q=a%03`, `?q=a%127`, CRS
 * 920271): no form or link writes one (a textarea sent by GET has only tabs and line breaks), but
 * a binary token an API passes without encoding could, so suspicious only (strict mode). (A raw one
 * is checkTargetBytes's; `%u0003` is an IIS escape there too.)
 */
function checkEscapedQueryControl(view: RequestView): ProtocolHit | null {
  return view.query !== null && escapedControlByte.test(view.query) ? protocolHit('protocol.control_char', 1, { location: 'query' }, view.query.slice(0, 120)) : null;
}

/**
 * mod_proxy's unix-socket syntax smuggled into the query (CVE-2021-40438): `unix:<path>|http://…`
 * makes Apache connect wherever the attacker says.
 */
function checkProxySocket(view: RequestView): ProtocolHit | null {
  if (view.query === null || !/unix(?::|%3a)/i.test(view.query)) return null;
  const decoded = percentDecode(view.query);
  const m = /unix:[^|]*\|\s*[a-z][a-z0-9+.-]*:\/\//i.exec(decoded);
  return m ? protocolHit('protocol.proxy_unix_socket', 2, { location: 'query' }, m[0]) : null;
}

export function checkRequestLine(view: RequestView): ProtocolHit | null {
  return strongest([checkMethod(view.method), checkTargetForm(view), checkTargetBytes(view), checkOverlong(view), checkMultipleEncoding(view), checkDecodedPath(view), checkEscapedQueryControl(view), checkProxySocket(view)]);
}
