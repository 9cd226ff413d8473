/**
 * PHP serialized objects (`O:8:"stdClass":1:{…}`, `C:…` for Serializable classes) in a value:
 * unserialize() on them instantiates any class the application loads and runs its magic methods —
 * the object injection of Joomla, vBulletin and Magento exploits. The header is parsed, not
 * pattern-matched: the declared name length must equal the quoted name's length, as unserialize()
 * demands. Serialized arrays and scalars (`a:2:{…}`, WordPress stores options that way) pass.
 */
import type { DetectorHit } from '../../types.ts';

const maxHeaders = 32;

export function findSerializedObject(text: string): DetectorHit | null {
  let seen = 0;
  for (let at = nextHeader(text, 0); at >= 0 && seen < maxHeaders; at = nextHeader(text, at + 2), seen++) {
    const prev = text.charCodeAt(at - 1);
    // Start of the value or of a nested value (`{`, `;`, `|` of session data, quote, space).
    if (at > 0 && ((prev >= 48 && prev <= 57) || (prev >= 65 && prev <= 90) || (prev >= 97 && prev <= 122))) continue;
    if (parsesAsObject(text, at)) return { kind: 'cmdi', rule: 'php.serialized_object', evidence: text.slice(at, at + 120), severity: 2 };
  }
  return null;
}

function nextHeader(text: string, from: number): number {
  const o = text.indexOf('O:', from);
  const c = text.indexOf('C:', from);
  if (o < 0) return c;
  if (c < 0) return o;
  return Math.min(o, c);
}

/** `O:<len>:"<name of len chars>":<count>:{` (a `+` before the number is accepted by PHP too). */
function parsesAsObject(text: string, at: number): boolean {
  let i = at + 2;
  if (text[i] === '+') i++;
  let digits = '';
  while (digits.length < 5 && /[0-9]/.test(text[i] ?? '')) digits += text[i++];
  if (digits.length === 0 || text[i] !== ':' || text[i + 1] !== '"') return false;
  const length = Number(digits);
  const nameStart = i + 2;
  const name = text.slice(nameStart, nameStart + length);
  if (name.length !== length || length === 0 || !/^[A-Za-z_\\\x80-\uffff][\w\\\x80-\uffff]*$/.test(name)) return false;
  const after = text.slice(nameStart + length, nameStart + length + 12);
  return /^":\+?\d{1,6}:\{/.test(after);
}
