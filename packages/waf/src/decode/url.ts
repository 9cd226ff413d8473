/**
 * Percent-decoding that never throws: malformed `%` sequences stay literal (as servers such as
 * PHP and nginx leave them), `%uXXXX` (IIS's non-standard form, still used to dodge filters) is
 * understood, and byte sequences that are not UTF-8 become U+FFFD instead of an exception.
 */
const utf8 = new TextDecoder('utf-8', { fatal: false });

/** The value of one hex digit's character code, or -1. */
export function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 70) return code - 55;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

export function percentDecode(text: string, plusAsSpace = false): string {
  if (text.indexOf('%') < 0 && (!plusAsSpace || text.indexOf('+') < 0)) return text;
  let out = '';
  let bytes: number[] = [];
  let highBytes = false;
  const flush = (): void => {
    if (bytes.length === 0) return;
    // ASCII runs (the common case: `%20`, `%3D`) need no UTF-8 decoder.
    out += highBytes ? utf8.decode(Uint8Array.from(bytes)) : String.fromCharCode(...bytes);
    bytes = [];
    highBytes = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 37 /* % */) {
      const h1 = hexValue(text.charCodeAt(i + 1));
      const h2 = hexValue(text.charCodeAt(i + 2));
      if (h1 >= 0 && h2 >= 0) {
        const byte = h1 * 16 + h2;
        bytes.push(byte);
        if (byte >= 0x80) highBytes = true;
        if (bytes.length >= 4096) flush();
        i += 2;
        continue;
      }
      const u = text.charCodeAt(i + 1);
      if (u === 117 || u === 85 /* u U */) {
        const a = hexValue(text.charCodeAt(i + 2));
        const b = hexValue(text.charCodeAt(i + 3));
        const c = hexValue(text.charCodeAt(i + 4));
        const d = hexValue(text.charCodeAt(i + 5));
        if (a >= 0 && b >= 0 && c >= 0 && d >= 0) {
          flush();
          out += String.fromCharCode(((a * 16 + b) * 16 + c) * 16 + d);
          i += 5;
          continue;
        }
      }
    }
    if (bytes.length > 0) flush();
    out += plusAsSpace && ch === 43 ? ' ' : text[i];
  }
  flush();
  return out;
}

/** Decodes repeatedly while the value changes (double and triple encoding), at most `rounds` times. */
export function percentDecodeRepeatedly(text: string, plusAsSpace = false, rounds = 4): string[] {
  const steps: string[] = [];
  let current = text;
  for (let i = 0; i < rounds; i++) {
    const next = percentDecode(current, plusAsSpace && i === 0);
    if (next === current) break;
    steps.push(next);
    current = next;
  }
  return steps;
}
