/**
 * Canonical form: what parsers downstream ignore, attackers insert. NUL and other control
 * characters (`<scr\0ipt>`), zero-width characters and the BOM (`javascript:\ufeffalert`) are
 * removed; every run of whitespace becomes one space (`union\t\n select`).
 */
function isInvisible(c: number): boolean {
  return (c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127 || c === 0xfeff || (c >= 0x200b && c <= 0x200f) || c === 0x2060 || c === 0xad;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12 || c === 0xa0 || c === 0x3000 || (c >= 0x2000 && c <= 0x200a);
}

/** True when canonicalize would change nothing: one pass without allocating (the common case). */
function alreadyCanonical(text: string): boolean {
  let lastSpace = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) {
      if (lastSpace) return false;
      lastSpace = true;
      continue;
    }
    if (c < 32 || c === 127 || (c >= 0xa0 && (isInvisible(c) || isSpace(c)))) return false;
    lastSpace = false;
  }
  return true;
}

export function canonicalize(text: string): string {
  if (alreadyCanonical(text)) return text;
  let out = '';
  let lastSpace = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isInvisible(c)) continue;
    if (isSpace(c)) {
      if (!lastSpace) out += ' ';
      lastSpace = true;
      continue;
    }
    lastSpace = false;
    out += text[i];
  }
  return out;
}
