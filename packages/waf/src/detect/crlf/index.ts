/**
 * HTTP header injection / response splitting: a line break followed by something a client would
 * read as a header ("Set-Cookie: x", "Location: …") or as a second response ("HTTP/1.1 200").
 * Breaks come in several spellings: CR/LF themselves, percent forms left after the core's
 * decoding (%0d, %250a), and U+560A / U+560D, whose low byte some servers keep (the "嘊嘍" trick).
 *
 * Where (the spec is silent; our choice): query, path, headers and cookies are the values
 * applications copy into response headers. A free-text body (a textarea) is full of
 * "Name: value" lines, so there only a break followed by a response-only header or a status line
 * counts, and only as suspicious — unless the value starts with the break: that is built to end a
 * line, not typed. A request line after a break is smuggling
 * (CRS 921110); a blank line and markup is a forged response body (921130).
 *
 * A break that had to be encoded to get there says more than a typed one. A header value cannot
 * carry a raw CR/LF (the HTTP parser refuses it), so `%0d` or `&#13;` after the first token of one
 * that is not a URL is written for a back end that decodes it: any header line after it is
 * injected (CRS 921140). An
 * XML attribute turns a typed break into a space, so `&#10;` there is deliberate; XML text is full
 * of breaks, so only a request or status line after an encoded one counts (921110/921120). A query
 * or cookie value without spaces that breaks into a `name=value` line forges a line of whatever
 * line-based format the application writes it into: a log, a config file, a header (921151).
 */
import type { DetectorHit, InputLocation } from '../../types.ts';
import { scannedPart } from '../scan-limit.ts';

/** Headers that mean an attack when injected: they set state or redirect in the victim's browser. */
const responseHeaders = new Set([
  'set-cookie', 'location', 'content-type', 'content-length', 'refresh', 'x-xss-protection', 'content-security-policy',
  'access-control-allow-origin', 'access-control-allow-credentials', 'transfer-encoding', 'content-disposition',
  'cache-control', 'link', 'x-forwarded-for', 'x-forwarded-host', 'host', 'cookie', 'set-cookie2', 'www-authenticate',
]);

/** Character references for CR and LF, decimal or hex, with any leading zeros. */
const referenceBreak = /&#(?:0*1[03]|x0*[ad]);/i;
const referenceBreaks = /&#(?:0*(1[03])|x0*([ad]));/gi;
/** A break written for a decoder: percent-encoded (once or twice, or overlong) or as a character reference. */
const encodedBreak = new RegExp(`%(?:25)?0[ad]|%c0%8[ad]|%e0%80%8[ad]|${referenceBreak.source}`, 'i');

const breakSpellings: readonly (readonly [string, string])[] = [
  ['%250d', '\r'], ['%250a', '\n'], ['%0d', '\r'], ['%0a', '\n'], ['\\r', '\r'], ['\\n', '\n'],
  ['\u560d', '\r'], ['\u560a', '\n'], ['%e5%98%8d', '\r'], ['%e5%98%8a', '\n'], ['%u000d', '\r'], ['%u000a', '\n'],
  // Overlong UTF-8 for CR and LF: no encoder writes them, lenient decoders (old IIS, some Java) read a break.
  ['%c0%8d', '\r'], ['%c0%8a', '\n'], ['%e0%80%8d', '\r'], ['%e0%80%8a', '\n'],
];
/** Any entry of breakSpellings, in one pattern (built from the table, so the two cannot drift apart). */
const anySpelling = new RegExp(breakSpellings.map(([from]) => from.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')).join('|'), 'i');

export function detectCrlf(value: string, location: InputLocation): DetectorHit | null {
  try {
    return detect(value, location);
  } catch {
    return null;
  }
}

/** A request line: what a smuggled second request starts with (CRS 921110). */
const requestLine = /^(?:get|post|head|put|delete|options|patch|connect|trace|track|propfind|proppatch|mkcol|copy|move|lock|unlock)\s+\S+\s+http\/\d/i;
/** The start of a response body after a forged blank line (CRS 921130). */
const markupStart = /^<(?:!doctype|html|head|body|meta|script|title)\b/i;
/** A status line: what a forged second response starts with. */
const statusLine = /^http\/\d(?:\.\d)?\s+\d{3}\b/i;
/** A `name=value` line (a config, log or form line), not base64's `==` padding. */
const assignmentLine = /^[a-z_][\w.-]{0,40}=[^=\s]/i;
/** A header line as a client captures it: `name: value`. */
const headerLine = /^[A-Za-z0-9-]{1,60}:[ \t]*\S/;
/** A value that names a place (Referer, Origin, a callback URL): its query may hold encoded breaks typed into a form. */
const urlLike = /^\s*(?:[a-z][a-z0-9+.-]*:\/\/|\/)/i;

function detect(value: string, location: InputLocation): DetectorHit | null {
  if (location === 'file_content' || location === 'raw_body') return null;
  if (location === 'xml') return detectInXml(value);
  // A whole request line as a query or cookie value: the probe for a smuggled request. (Headers are
  // left out: internal tooling does log request lines into custom headers.)
  if ((location === 'query' || location === 'cookie') && value.length < 4096 && requestLine.test(value.trim()) && /\shttp\/\d(?:\.\d)?$/i.test(value.trim())) {
    return hit('crlf.request_smuggling', value, 2);
  }
  const bounded = scannedPart(value);
  const text = normalizeBreaks(bounded, location !== 'body');
  if (text === null) return null;
  const lines = text.split(/\r\n|\r|\n/);
  const encoded = encodedBreak.test(bounded);
  // Header values that are no URL, with a break a decoder will make after a single token (no
  // message typed by a person): every header line after it is injected.
  const forgedHeaders = encoded && location === 'header' && !urlLike.test(bounded) && !/\s|%20/i.test(bounded.slice(0, bounded.search(encodedBreak)));
  const forgedLines = encoded && (location === 'query' || location === 'cookie') && !/[\s+]|%(?:25)?(?:20|09)/i.test(bounded.replace(/%(?:25)?0[ad]/gi, ''));
  // A textarea is full of "Name: value" lines; but a value that starts with a break is no prose:
  // it is built to end the line the application writes it into. A request line after a single word
  // ("aaa\nGET / HTTP/1.1") is built the same way.
  const freeText = location === 'body' && lines[0]!.trim() !== '';
  const oneWord = /^\S{0,40}$/.test(lines[0]!);
  // Every line a `Name: value` header line, the first included: a block of headers a client
  // captured and reports (error reporters, HAR exports, support forms send response headers this
  // way). Injection needs a line of the application's own before the break; this has none.
  if (freeText && lines.every((l) => l.trim() === '' || headerLine.test(l))) return null;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.trimStart();
    if (statusLine.test(line)) return hit('crlf.response_splitting', line, freeText ? 1 : 2);
    if (requestLine.test(line)) return hit('crlf.request_smuggling', line, freeText && !oneWord ? 1 : 2);
    if (lines[i - 1]!.trim() === '' && i >= 2 && markupStart.test(line)) return hit('crlf.response_splitting', line, freeText ? 1 : 2);
    if (forgedLines && assignmentLine.test(line)) return hit('crlf.line_injection', line, 2);
    const colon = line.indexOf(':');
    if (colon <= 0 || colon > 40) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!/^[a-z0-9-]+$/.test(name)) continue;
    // "location:" with nothing after it sets nothing.
    if (line.slice(colon + 1).trim() === '') continue;
    if (responseHeaders.has(name) || forgedHeaders) return hit('crlf.header_injection', line, freeText ? 1 : 2);
    // Query, cookie and path values are never multi-line: a "Some-Header: value" line there is injected.
    if (!freeText && (name.startsWith('x-') || name.includes('-'))) return hit('crlf.header_injection', line, location === 'header' ? 1 : 2);
  }
  return null;
}

/**
 * XML: a request or status line after a break written as a character reference (an attribute
 * would fold a typed one into a space). The parser hands the application the decoded break.
 */
function detectInXml(value: string): DetectorHit | null {
  if (!value.includes('&#')) return null;
  const bounded = scannedPart(value);
  if (!referenceBreak.test(bounded)) return null;
  // Split at the references only: XML text is full of typed breaks.
  const lines = bounded.split(referenceBreak);
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.trimStart();
    if (statusLine.test(line)) return hit('crlf.response_splitting', line, 2);
    if (requestLine.test(line)) return hit('crlf.request_smuggling', line, 2);
  }
  return null;
}

function referenceBreaksDecoded(text: string): string {
  return text.replace(referenceBreaks, (_m, dec?: string, hex?: string) => (dec === '13' || hex?.toLowerCase() === 'd' ? '\r' : '\n'));
}

/** Returns the value with every break spelling made a real CR/LF, or null when there is none. */
function normalizeBreaks(value: string, references: boolean): string | null {
  let hasBreak = value.includes('\n') || value.includes('\r');
  let text = value;
  // (A body's entity reading comes from the decoder, which leaves editor HTML alone: so do we.)
  if (references && value.includes('&#') && referenceBreak.test(value)) {
    text = referenceBreaksDecoded(text);
    hasBreak = true;
  }
  // One scan for any spelling first: most values with '%' or '\\' have none.
  if (anySpelling.test(value)) {
    let lower: string | null = null;
    for (const [from, to] of breakSpellings) {
      lower ??= text.toLowerCase();
      if (lower.includes(from)) {
        text = replaceInsensitive(text, from, to);
        lower = null;
        hasBreak = true;
      }
    }
  }
  return hasBreak ? text : null;
}

function replaceInsensitive(text: string, from: string, to: string): string {
  let out = '';
  const lower = text.toLowerCase();
  let i = 0;
  for (;;) {
    const at = lower.indexOf(from, i);
    if (at < 0) return out + text.slice(i);
    out += text.slice(i, at) + to;
    i = at + from.length;
  }
}

function hit(rule: string, evidence: string, severity: 1 | 2): DetectorHit {
  return { kind: 'crlf', rule, evidence: evidence.slice(0, 120), severity };
}
