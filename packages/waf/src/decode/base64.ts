/**
 * Base64 only where a whole value looks like it (standard or URL alphabet, padded or not —
 * gotestwaf's Base64Flat drops the `=`), and only when what comes out is readable text: random
 * identifiers made of letters are valid base64 too, but they decode to binary noise, which we drop.
 */
const minLength = 8;
const maxLength = 1 << 20;

function isBase64Char(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47 || c === 45 || c === 95;
}

export function looksLikeBase64(text: string): boolean {
  const n = text.length;
  if (n < minLength || n > maxLength) return false;
  let end = n;
  while (end > 0 && text.charCodeAt(end - 1) === 61 /* = */ && n - end < 2) end--;
  if (end % 4 === 1) return false;
  if (end < n && n % 4 !== 0) return false;
  let letters = 0;
  let digitsOrSymbols = 0;
  let nonHex = false;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (!isBase64Char(c)) return false;
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) letters++;
    else digitsOrSymbols++;
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70))) nonHex = true;
  }
  // Hex strings (hashes, session ids) are base64's alphabet too, but they are hex, not base64.
  if (!nonHex) return false;
  // A plain number or a plain lowercase word is not worth decoding.
  return letters > 0 && (digitsOrSymbols > 0 || /[A-Z]/.test(text) && /[a-z]/.test(text));
}


/** The decoded text, or null when the value is not base64 of readable UTF-8 text. */
export function decodeBase64Text(text: string): string | null {
  if (!looksLikeBase64(text)) return null;
  let bytes: Buffer;
  try {
    bytes = Buffer.from(text.replace(/=+$/, ''), text.includes('-') || text.includes('_') ? 'base64url' : 'base64');
  } catch {
    return null;
  }
  if (bytes.length === 0) return null;
  // Control bytes mean binary: reject before paying for a UTF-8 decode.
  let controls = 0;
  for (const b of bytes) if ((b < 32 && b !== 9 && b !== 10 && b !== 13) || b === 127) controls++;
  if (controls > bytes.length * 0.05) return null;
  const decoded = bytes.toString('utf8');
  let printable = 0;
  for (let i = 0; i < decoded.length; i++) {
    const c = decoded.charCodeAt(i);
    if ((c >= 32 && c !== 127 && c !== 0xfffd) || c === 9 || c === 10 || c === 13) printable++;
  }
  return printable >= decoded.length * 0.95 ? decoded : null;
}
