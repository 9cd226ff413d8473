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
  return findInSerializedBase64(text);
}

/**
 * A serialized string (`s:<len>:"…"`) whose content is base64 of an object or of PHP code: what
 * applications that store `base64_encode(serialize($x))` inside a serialized array (carts, widget
 * settings, remember-me cookies) decode and unserialize or include one step later. The length must
 * match, as unserialize() demands; the content is decoded only when it is base64 as a whole.
 */
function findInSerializedBase64(text: string): DetectorHit | null {
  if (!text.includes('s:')) return null;
  const strings = /(?:^|[{;])s:(\d{2,6}):"/g;
  let count = 0;
  for (let m = strings.exec(text); m && count < maxHeaders; m = strings.exec(text), count++) {
    const start = m.index + m[0].length;
    const content = text.slice(start, start + Number(m[1]));
    if (content.length !== Number(m[1]) || text[start + content.length] !== '"') continue;
    if (content.length < 16 || content.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(content)) continue;
    const decoded = Buffer.from(content, 'base64').toString('latin1');
    const inner = findSerializedObjectHeader(decoded);
    if (inner || /<\?(?:php\b|=)/i.test(decoded)) return { kind: 'cmdi', rule: 'php.serialized_base64', evidence: `${text.slice(m.index, start)}… = ${decoded.slice(0, 80)}`, severity: 2 };
  }
  return null;
}

/** An object header anywhere in decoded text (the decoded content is read once, no further nesting). */
function findSerializedObjectHeader(text: string): boolean {
  for (let at = nextHeader(text, 0), seen = 0; at >= 0 && seen < maxHeaders; at = nextHeader(text, at + 2), seen++) {
    if (parsesAsObject(text, at)) return true;
  }
  return false;
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
