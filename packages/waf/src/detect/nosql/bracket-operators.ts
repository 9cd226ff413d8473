/**
 * An operator in query-string key syntax inside a value: `u_id[$ne]`, `[$lte]5`,
 * `user[name][$regex]`. The `qs` parser turns `a[$ne]=x` into `{a: {$ne: x}}`; the same text in a
 * value is that key carried to a place where a second parser (a redirect target, a stored filter,
 * an XML attribute copied into a query string) reads it. Prose writes no bracketed `$` words, and a
 * PHP or shell variable indexed by one (`$row[$lt]`, `$this->map[$not]`) is code, so the bracketed
 * operator must stand at the start of the value or after a bare key path.
 */
import { builderOperators, clearOperators } from './operators.ts';

export interface BracketOperator {
  /** Offset of the key path (or the bracket when there is none). */
  start: number;
  clear: boolean;
}

export function findBracketOperator(value: string): BracketOperator | null {
  const lower = value.length > 8192 ? value.slice(0, 8192).toLowerCase() : value.toLowerCase();
  let found: BracketOperator | null = null;
  for (let at = lower.indexOf('[$'); at >= 0; at = lower.indexOf('[$', at + 2)) {
    let end = at + 2;
    while (end < lower.length && isLetter(lower.charCodeAt(end))) end++;
    if (lower[end] !== ']') continue;
    const op = lower.slice(at + 1, end);
    const clear = clearOperators.has(op);
    if (!clear && !builderOperators.has(op)) continue;
    const start = keyPathStart(lower, at);
    if (start < 0) continue;
    if (clear) return { start, clear };
    found ??= { start, clear };
  }
  return found;
}

/** Start of the bare key path ending at `bracket` (`user[name]`), or -1 when code owns it. */
function keyPathStart(lower: string, bracket: number): number {
  let i = bracket;
  while (i > 0 && isKeyChar(lower.charCodeAt(i - 1))) i--;
  if (i === 0) return 0;
  // What stands before the key: a separator of values or of words, never a sigil or member access.
  return /[\s&?=,;"'(]/.test(lower[i - 1]!) ? i : -1;
}

function isLetter(c: number): boolean {
  return c >= 97 && c <= 122;
}

/** Identifier characters and the brackets of a nested key (`a[b][c]`). */
function isKeyChar(c: number): boolean {
  return isLetter(c) || (c >= 48 && c <= 57) || c === 95 || c === 45 || c === 91 || c === 93;
}
