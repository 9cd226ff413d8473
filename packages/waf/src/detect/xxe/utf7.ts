/**
 * UTF-7 decoding (RFC 2152) of "+…-" runs. An XML document declared encoding="UTF-7" hides its
 * markup from byte-level filters (+ADwAIQ-DOCTYPE is <!DOCTYPE); the parser will still read it.
 */
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function decodeUtf7(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c !== '+') {
      out += c;
      i++;
      continue;
    }
    let j = i + 1;
    while (j < text.length && alphabet.includes(text[j]!)) j++;
    if (j === i + 1) {
      out += text[j] === '-' ? '+' : '+';
      i = text[j] === '-' ? j + 1 : j;
      continue;
    }
    out += decodeRun(text.slice(i + 1, j));
    i = text[j] === '-' ? j + 1 : j;
  }
  return out;
}

/** Base64 (modified, no padding) of UTF-16BE code units. */
function decodeRun(run: string): string {
  let bits = 0;
  let bitCount = 0;
  let out = '';
  for (const ch of run) {
    bits = (bits << 6) | alphabet.indexOf(ch);
    bitCount += 6;
    if (bitCount >= 16) {
      bitCount -= 16;
      out += String.fromCharCode((bits >> bitCount) & 0xffff);
      bits &= (1 << bitCount) - 1;
    }
  }
  return out;
}
