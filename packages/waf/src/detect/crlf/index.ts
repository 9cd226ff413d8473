/**
 * HTTP header injection / response splitting: a line break followed by something a client would
 * read as a header ("Set-Cookie: x", "Location: …") or as a second response ("HTTP/1.1 200").
 * Breaks come in several spellings: CR/LF themselves, percent forms left after the core's
 * decoding (%0d, %250a), and U+560A / U+560D, whose low byte some servers keep (the "嘊嘍" trick).
 *
 * Where (the spec is silent; our choice): query, path, headers and cookies are the values
 * applications copy into response headers. A free-text body (a textarea) is full of
 * "Name: value" lines, so there only a break followed by a response-only header or a status line
 * counts, and only as suspicious.
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

function detect(value: string, location: InputLocation): DetectorHit | null {
  if (location === 'file_content' || location === 'raw_body' || location === 'xml') return null;
  const text = normalizeBreaks(value.length > 16384 ? value.slice(0, 16384) : value);
  if (text === null) return null;
  const lines = text.split(/\r\n|\r|\n/);
  const freeText = location === 'body';
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.trimStart();
    if (/^http\/\d(?:\.\d)?\s+\d{3}\b/i.test(line)) return hit('crlf.response_splitting', line, freeText ? 1 : 2);
    const colon = line.indexOf(':');
    if (colon <= 0 || colon > 40) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!/^[a-z0-9-]+$/.test(name)) continue;
    if (responseHeaders.has(name)) return hit('crlf.header_injection', line, freeText ? 1 : 2);
    if (!freeText && (name.startsWith('x-') || name.includes('-'))) return hit('crlf.header_injection', line, 1);
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
