/**
 * JavaScript / JSON string escapes attackers use to hide keywords: `\uXXXX`, `\u{X…}`, `\xXX`
 * (gotestwaf's JSUnicode encoder writes every character as `\uXXXX`). Unknown escapes keep their
 * backslash: we are undoing obfuscation, not evaluating a string literal.
 */
function hexRun(text: string, start: number, length: number): number {
  if (start + length > text.length) return -1;
  let value = 0;
  for (let i = start; i < start + length; i++) {
    const c = text.charCodeAt(i);
    const digit = c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

export function decodeJsEscapes(text: string): string {
  if (text.indexOf('\\') < 0) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch !== '\\' || i + 1 >= text.length) {
      out += ch;
      continue;
    }
    const kind = text[i + 1];
    if (kind === 'u' || kind === 'U') {
      if (text[i + 2] === '{') {
        const close = text.indexOf('}', i + 3);
        if (close > i + 3 && close - (i + 3) <= 6) {
          const code = hexRun(text, i + 3, close - (i + 3));
          if (code >= 0 && code <= 0x10ffff) {
            out += String.fromCodePoint(code);
            i = close;
            continue;
          }
        }
      }
      const code = hexRun(text, i + 2, 4);
      if (code >= 0) {
        out += String.fromCharCode(code);
        i += 5;
        continue;
      }
    } else if (kind === 'x' || kind === 'X') {
      const code = hexRun(text, i + 2, 2);
      if (code >= 0) {
        out += String.fromCharCode(code);
        i += 3;
        continue;
      }
    }
    out += ch;
  }
  return out;
}
