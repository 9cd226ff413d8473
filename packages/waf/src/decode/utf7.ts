/**
 * UTF-7 (RFC 2152), the charset old browsers could be talked into (`<meta charset="UTF-7">`):
 * `+ADw-script+AD4-` is `<script>`. Only runs shaped `+<modified base64>-` are decoded, and only
 * when the result is readable text, so `C++ -O2` or `a+b-c` stay as they are.
 */
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function decodeRun(run: string): string | null {
  let bits = 0;
  let buffer = 0;
  const units: number[] = [];
  for (const ch of run) {
    buffer = (buffer << 6) | alphabet.indexOf(ch);
    bits += 6;
    if (bits >= 16) {
      bits -= 16;
      units.push((buffer >> bits) & 0xffff);
    }
  }
  if (units.length === 0) return null;
  const text = String.fromCharCode(...units);
  for (const unit of units) if (unit < 32 && unit !== 9 && unit !== 10 && unit !== 13) return null;
  return text;
}

export function decodeUtf7(text: string): string {
  if (text.indexOf('+') < 0 || text.indexOf('-') < 0) return text;
  let out = '';
  let i = 0;
  let changed = false;
  while (i < text.length) {
    const plus = text.indexOf('+', i);
    if (plus < 0) break;
    let end = plus + 1;
    while (end < text.length && end - plus <= 512 && alphabet.includes(text[end]!) && text[end] !== '+') end++;
    const decoded = text[end] === '-' && end - plus >= 3 ? decodeRun(text.slice(plus + 1, end)) : null;
    if (decoded === null) {
      out += text.slice(i, plus + 1);
      i = plus + 1;
      continue;
    }
    out += text.slice(i, plus) + decoded;
    i = end + 1;
    changed = true;
  }
  return changed ? out + text.slice(i) : text;
}
