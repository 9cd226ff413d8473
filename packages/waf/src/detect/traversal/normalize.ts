/**
 * Canonical path text: every spelling of '.', '/' and '\' attackers use is folded to the plain
 * character, so "../" is found whatever way it was written. Percent forms are handled here too
 * (the core decodes, but a value can still carry a second or third layer, and the overlong UTF-8
 * forms %c0%ae / %c0%af decode to nothing useful in a strict UTF-8 decoder).
 */

/** Encoded spellings, longest first, lower-case. */
const spellings: readonly (readonly [string, string])[] = [
  ['%25c0%25ae', '.'], ['%25c0%25af', '/'], ['%25c1%259c', '/'], ['%252e', '.'], ['%252f', '/'], ['%255c', '/'],
  ['%e0%80%ae', '.'], ['%e0%80%af', '/'], ['%c0%ae', '.'], ['%c0%af', '/'], ['%c1%9c', '/'], ['%c1%8s', '/'],
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
/** Latin-1 views of overlong sequences: "À®" = c0 ae, "À¯" = c0 af, "Á\x9c" = c1 9c. */
const latin1Overlong: readonly (readonly [string, string])[] = [['\u00c0\u00ae', '.'], ['\u00c0\u00af', '/'], ['\u00c1\u009c', '/']];

export interface NormalizedPath {
  text: string;
  /** Some unusual spelling was folded: a path written that way is evasion, not a user's typing. */
  encoded: boolean;
}

export function normalizePath(value: string): NormalizedPath {
  let text = value.length > 8192 ? value.slice(0, 8192) : value;
  let encoded = false;
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
  for (const [from, to] of latin1Overlong) {
    if (text.includes(from)) {
      text = text.split(from).join(to);
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
