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
 */
import type { DetectorHit, InputLocation } from '../../types.ts';

/** Headers that mean an attack when injected: they set state or redirect in the victim's browser. */
const responseHeaders = new Set([
  'set-cookie', 'location', 'content-type', 'content-length', 'refresh', 'x-xss-protection', 'content-security-policy',
  'access-control-allow-origin', 'access-control-allow-credentials', 'transfer-encoding', 'content-disposition',
  'cache-control', 'link', 'x-forwarded-for', 'x-forwarded-host', 'host', 'cookie', 'set-cookie2', 'www-authenticate',
]);

const breakSpellings: readonly (readonly [string, string])[] = [
  ['%250d', '\r'], ['%250a', '\n'], ['%0d', '\r'], ['%0a', '\n'], ['\\r', '\r'], ['\\n', '\n'],
  ['\u560d', '\r'], ['\u560a', '\n'], ['%e5%98%8d', '\r'], ['%e5%98%8a', '\n'], ['%u000d', '\r'], ['%u000a', '\n'],
];

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

function detect(value: string, location: InputLocation): DetectorHit | null {
  if (location === 'file_content' || location === 'raw_body' || location === 'xml') return null;
  // A whole request line as a query or cookie value: the probe for a smuggled request. (Headers are
  // left out: internal tooling does log request lines into custom headers.)
  if ((location === 'query' || location === 'cookie') && value.length < 4096 && requestLine.test(value.trim()) && /\shttp\/\d(?:\.\d)?$/i.test(value.trim())) {
    return hit('crlf.request_smuggling', value, 2);
  }
  const text = normalizeBreaks(value.length > 16384 ? value.slice(0, 16384) : value);
  if (text === null) return null;
  const lines = text.split(/\r\n|\r|\n/);
  // A textarea is full of "Name: value" lines; but a value that starts with a break is no prose:
  // it is built to end the line the application writes it into. A request line after a single word
  // ("aaa\nGET / HTTP/1.1") is built the same way.
  const freeText = location === 'body' && lines[0]!.trim() !== '';
  const oneWord = /^\S{0,40}$/.test(lines[0]!);
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.trimStart();
    if (/^http\/\d(?:\.\d)?\s+\d{3}\b/i.test(line)) return hit('crlf.response_splitting', line, freeText ? 1 : 2);
    if (requestLine.test(line)) return hit('crlf.request_smuggling', line, freeText && !oneWord ? 1 : 2);
    if (lines[i - 1]!.trim() === '' && i >= 2 && markupStart.test(line)) return hit('crlf.response_splitting', line, freeText ? 1 : 2);
    const colon = line.indexOf(':');
    if (colon <= 0 || colon > 40) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!/^[a-z0-9-]+$/.test(name)) continue;
    // "location:" with nothing after it sets nothing.
    if (line.slice(colon + 1).trim() === '') continue;
    if (responseHeaders.has(name)) return hit('crlf.header_injection', line, freeText ? 1 : 2);
    // Query, cookie and path values are never multi-line: a "Some-Header: value" line there is injected.
    if (!freeText && (name.startsWith('x-') || name.includes('-'))) return hit('crlf.header_injection', line, location === 'header' ? 1 : 2);
  }
  return null;
}

/** Returns the value with every break spelling made a real CR/LF, or null when there is none. */
function normalizeBreaks(value: string): string | null {
  let hasBreak = value.includes('\n') || value.includes('\r');
  let text = value;
  if (value.includes('%') || value.includes('\\') || value.includes('\u560a') || value.includes('\u560d')) {
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
