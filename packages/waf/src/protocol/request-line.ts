/**
 * The request line (CRS 920100, 920220, 920230, 920260, 920270/920271, 920610, 921190, 921240): the
 * method token, the shape of the target, and bytes no client puts in a URL.
 *
 * Severities (the spec is silent; our choice): 2 where the RFC says a client MUST NOT and no client
 * does (a malformed method or target) or where the shape is an exploit (NUL, a line break in the
 * path as in PHP-FPM's CVE-2019-11043, `%uFFxx` full-width evasion, mod_proxy's `unix:…|http://`).
 * 1 where sloppy but real clients go: a bare `%` ("50%off" typed into the address bar), IIS `%u`
 * escapes from old JavaScript `escape()`, an absolute-form target (forward-proxy style), TRACE, and a
 * `#fragment` (a MUST NOT, but the server ignores it). An escaped control byte in the query is not
 * recorded: CRS's own must-pass tests send one in ordinary text (`…is%02`), and the value
 * detectors see the decoded text anyway.
 *
 * Byte ranges left out on purpose, in both modes (strict is a new site's default):
 * - escaped bytes 0x80-0xFF that are not UTF-8 (CRS 920250's lone `%c0` or cut `%E2%A3`, 920272's
 *   `%80`/`%FF`): forms of sites still in a legacy charset send them as text (windows-1251 `я` is
 *   `%FF`, windows-1252 `€` is `%80`, Latin-1 `À` is `%C0`), and a CRS must-pass test puts `%FF`
 *   in a path. Overlong forms stay findings where they do a lenient decoder's work (checkOverlong
 *   says where: windows-1251 `АЇ`, as in `УКРАЇНА`, is the same C0 AF as an overlong `/`).
 *   Out-of-range forms (`%F5%80%BF%BF`, past U+10FFFF) decode to no ASCII in any decoder, so
 *   they hide nothing from a filter, and windows-1251 Ukrainian text writes the same bytes (`ції»` is F6 B3 BF BB);
 * - printable ASCII CRS 920272-920274 narrow further at paranoia 3-4: `%` (50% off), space, `<`,
 *   backtick are text, and the value detectors judge them in context.
 */
import { hexValue, percentDecode } from '../decode/url.ts';
import { alnumHexCode } from './alnum-code.ts';
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
 * Overlong UTF-8 (`%c0%af` for '/', `%e0%80%ae` for '.'): no encoder produces it; decoders that
 * accept it turn it into the very characters filters look for (CRS 920250, IIS's unicode bug).
 *
 * The two-byte forms (C0/C1 then a continuation byte) are also ordinary text in legacy charsets a
 * form may still post in: windows-1251 `А»` (as in `«РОМАШКА»`) is C0 BB, `АЇ` (`УКРАЇНА`) C0 AF,
 * windows-1252 `Á©` C1 A9. So a two-byte form counts only where it does a lenient decoder's work:
 * - 2 when it completes a traversal (`..%c0%af`, `%c0%ae%c0%ae/`), wherever it stands;
 * - 2 when it stands among ASCII (no escaped byte 0x80-0xFF beside it) and decodes to a character
 *   that breaks out of a path or markup (`/ \ < > " ' | & $`, NUL, CR, LF): legacy text puts such
 *   pairs (`АЇ`, `Аў`) inside a word, between other letters' bytes, not alone between ASCII;
 * - 1 when it spells a letter or digit inside an ASCII word (`sel%c1%a5ct`): no text has a
 *   Cyrillic letter pair there;
 * - otherwise not recorded (`+%C0%A0` is windows-1251 `А` and a no-break space).
 * The three- and four-byte forms that decode to ASCII (`%e0%80%af`, `%f0%80%80%af`) spell nothing in
 * any legacy charset (windows-1251 `аЂЇ`): 2 wherever they are. Those that decode to a non-ASCII
 * character (`%e0%85%bb`, windows-1251 `а…»` ending a quotation) hide nothing from a filter: not
 * recorded.
 */
const overlongGate = /%(?:c[01]|e0|f0)%[89ab]/i;

/**
 * Characters a lenient decoder should not be handed: path and markup breakers, NUL and line breaks.
 * Not `.`, `;`, `` ` ``: windows-1251 writes them after a one-letter word (`Серия А®` is C0 AE, an
 * overlong '.'; `«Литера А»` ends in C0 BB, ';'; `Б` and a no-break space are C1 A0, '`'), and
 * alone they break nothing (a dot that makes a traversal is caught as one).
 */
const breakerCodes = new Set([0, 10, 13, ...[...'/\\<>"\'|&$'].map((c) => c.charCodeAt(0))]);

interface Unit {
  /** The byte (or character code, for a raw character) at this place of the target. */
  code: number;
  /** Start of the next unit in the target. */
  next: number;
}

/** The byte an escape `%hh` at i stands for, or the raw character there. */
function unitAt(t: string, i: number): Unit {
  if (t.charCodeAt(i) === 37 /* % */) {
    const high = hexValue(t.charCodeAt(i + 1));
    const low = hexValue(t.charCodeAt(i + 2));
    if (high >= 0 && low >= 0) return { code: high * 16 + low, next: i + 3 };
  }
  return { code: t.charCodeAt(i), next: i + 1 };
}

const isContinuation = (b: number) => b >= 0x80 && b <= 0xbf;
const isWordCode = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

interface Overlong {
  start: number;
  end: number;
  /** The ASCII character it decodes to. */
  code: number;
  /** A three- or four-byte form: no legacy text collides with it. */
  long: boolean;
}

/** The overlong form that starts at i (escaped bytes only), or null. */
function overlongAt(t: string, i: number): Overlong | null {
  if (t.charCodeAt(i) !== 37) return null;
  const a = unitAt(t, i);
  if (a.next !== i + 3 || (a.code !== 0xc0 && a.code !== 0xc1 && a.code !== 0xe0 && a.code !== 0xf0)) return null;
  const b = unitAt(t, a.next);
  if (b.next !== a.next + 3 || !isContinuation(b.code)) return null;
  if (a.code === 0xc0 || a.code === 0xc1) return { start: i, end: b.next, code: ((a.code & 1) << 6) | (b.code & 0x3f), long: false };
  if (a.code === 0xe0 && b.code > 0x81) return null; // decodes past ASCII
  if (a.code === 0xf0 && b.code !== 0x80) return null;
  const c = unitAt(t, b.next);
  if (c.next !== b.next + 3 || !isContinuation(c.code)) return null;
  if (a.code === 0xe0) return { start: i, end: c.next, code: ((b.code & 1) << 6) | (c.code & 0x3f), long: true };
  if (c.code > 0x81) return null;
  const d = unitAt(t, c.next);
  if (d.next !== c.next + 3 || !isContinuation(d.code)) return null;
  return { start: i, end: d.next, code: ((c.code & 1) << 6) | (d.code & 0x3f), long: true };
}

function checkOverlong(view: RequestView): ProtocolHit | null {
  const t = view.target;
  if (!overlongGate.test(t)) return null;
  // The target read once: each place's code, and whether an overlong form wrote it.
  const codes: number[] = [];
  const fromOverlong: (Overlong | null)[] = [];
  for (let i = 0; i < t.length; ) {
    const o = overlongAt(t, i);
    if (o) {
      codes.push(o.code);
      fromOverlong.push(o);
      i = o.end;
    } else {
      const u = unitAt(t, i);
      codes.push(u.code);
      fromOverlong.push(null);
      i = u.next;
    }
  }
  const hit = (o: Overlong, severity: 1 | 2) => protocolHit('protocol.overlong_utf8', severity, { location: o.start < view.path.length ? 'path' : 'query' }, t.slice(Math.max(0, o.start - 20), o.end + 20));
  const dot = 46;
  const isSep = (c: number | undefined) => c === 47 || c === 92;
  let weak: ProtocolHit | null = null;
  let prev = -1; // the code before the current run of overlong forms (-1 at the start)
  let next = -1; // the code after it (-1 at the end)
  for (let k = 0; k < codes.length; k++) {
    const o = fromOverlong[k];
    if (!o) continue;
    if (!fromOverlong[k - 1]) {
      // A run of overlong forms starts: its neighbours outside it, found once per run.
      let after = k + 1;
      while (after < codes.length && fromOverlong[after]) after++;
      prev = k > 0 ? codes[k - 1]! : -1;
      next = after < codes.length ? codes[after]! : -1;
    }
    if (o.long) return hit(o, 2);
    const c = codes[k]!;
    // Part of `../` once decoded, or of `/..` with an overlong dot: the traversal the form exists
    // for. An overlong separator before plain dots is not counted: all-caps Ukrainian ending in
    // `АЇ` before an ellipsis (`КРАЇ...`) writes exactly that.
    if (c === dot || isSep(c)) {
      for (let s = Math.max(0, k - 2); s <= k; s++) {
        const [x, y, z] = [codes[s], codes[s + 1], codes[s + 2]];
        if (x === dot && y === dot && isSep(z)) return hit(o, 2);
        if (isSep(x) && y === dot && z === dot && (fromOverlong[s + 1] || fromOverlong[s + 2])) return hit(o, 2);
      }
    }
    if (prev >= 0x80 || next >= 0x80) continue; // inside legacy-charset text
    if (breakerCodes.has(c)) return hit(o, 2);
    if (isWordCode(c) && isWordCode(prev) && isWordCode(next)) weak ??= hit(o, 1);
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
  return strongest([checkMethod(view.method), checkTargetForm(view), checkTargetBytes(view), checkOverlong(view), checkMultipleEncoding(view), checkDecodedPath(view), checkProxySocket(view)]);
}
