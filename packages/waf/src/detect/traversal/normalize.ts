/**
 * Canonical path text: every spelling of '.', '/' and '\' attackers use is folded to the plain
 * character, so "../" is found whatever way it was written. Percent forms are handled here too
 * (the core decodes, but a value can still carry a second or third layer, and the overlong UTF-8
 * forms %c0%ae / %c0%af decode to nothing useful in a strict UTF-8 decoder). Overlong forms are read
 * by decode/overlong.ts in context: windows-1251 `КРАЇ...` is C0 AF before dots, text, not `/...`.
 */
import { findOverlongForms } from '../../decode/overlong.ts';

/** Encoded spellings, longest first, lower-case. */
const spellings: readonly (readonly [string, string])[] = [
  ['%252e', '.'], ['%252f', '/'], ['%255c', '/'], ['%c1%8s', '/'],
  ['%c0%2e', '.'], ['%c0%2f', '/'], ['%c0%5c', '/'], ['%u002e', '.'], ['%u002f', '/'], ['%u005c', '/'],
  ['%u2215', '/'], ['%u2216', '/'], ['%uff0e', '.'], ['%2e', '.'], ['%2f', '/'], ['%5c', '/'],
  ['\\u002e', '.'], ['\\u002f', '/'], ['\\u005c', '/'],
];
/** C-style hex spellings (`0x2e0x2e0x2f`): some scanners and encoders write bytes this way. */
const hexSpellings: readonly (readonly [string, string])[] = [['0x2e', '.'], ['0x2f', '/'], ['0x5c', '/']];

/** Characters that stand for '.', '/' or '\' once decoded (latin-1 read of overlong UTF-8, full-width, lookalikes). */
const lookalikes = new Map<string, string>([
  ['\uff0e', '.'], ['\uff0f', '/'], ['\uff3c', '/'], ['\u2215', '/'], ['\u2216', '/'], ['\u2044', '/'],
  ['\u3002', '.'], ['\\', '/'],
]);
/** '.', '/', '\\': the characters an overlong form is folded to here (others make no path). */
const pathCodes = new Set([46, 47, 92]);

/**
 * Overlong forms of '.', '/', '\\' that do a lenient decoder's work, written as the character
 * (escaped once or twice, or raw latin-1 bytes as in a multipart field: `À¯` is C0 AF).
 */
function foldOverlong(text: string): { text: string; folded: boolean } {
  const forms = findOverlongForms(text, { doubleEscaped: true }).filter((f) => f.weight === 2 && pathCodes.has(f.code));
  if (forms.length === 0) return { text, folded: false };
  let out = '';
  let at = 0;
  for (const f of forms) {
    out += text.slice(at, f.start) + String.fromCharCode(f.code);
    at = f.end;
  }
  return { text: out + text.slice(at), folded: true };
}

export interface NormalizedPath {
  text: string;
  /** Some unusual spelling was folded: a path written that way is evasion, not a user's typing. */
  encoded: boolean;
}

export function normalizePath(value: string): NormalizedPath {
  // Only the head: a path padded past 8 KiB is no path an OS opens (PATH_MAX is 4096 on Linux,
  // 32,767 on Windows only behind a leading `\\?\`), so a traversal after such padding fails itself.
  let text = value.length > 8192 ? value.slice(0, 8192) : value;
  const overlong = foldOverlong(text);
  text = overlong.text;
  let encoded = overlong.folded;
  if (text.includes('%') || text.includes('\\u')) {
    let lower = text.toLowerCase();
    for (const [from, to] of spellings) {
      if (lower.includes(from)) {
        lower = lower.split(from).join(to);
        encoded = true;
      }
    }
    if (encoded) text = lower;
  }
  if (text.includes('0x') || text.includes('0X')) {
    const lower = text.toLowerCase();
    // Only when two of them meet (or one meets a dot or slash): a lone 0x2f in code is a constant.
    if (/0x(?:2e|2f|5c)(?:0x(?:2e|2f|5c)|[./\\])/.test(lower)) {
      let folded = lower;
      for (const [from, to] of hexSpellings) folded = folded.split(from).join(to);
      text = folded;
      encoded = true;
    }
  }
  // Plain ASCII (the common case) only needs its backslashes turned: skip the per-character walk.
  // eslint-disable-next-line no-control-regex
  if (!/[^\x00-\x7f]/.test(text)) return { text: text.replaceAll('\\', '/').toLowerCase(), encoded };
  let out = '';
  for (const c of text) {
    const mapped = lookalikes.get(c);
    if (mapped !== undefined) {
      if (c !== '\\') encoded = true;
      out += mapped;
    } else {
      out += c;
    }
  }
  return { text: out.toLowerCase(), encoded };
}
