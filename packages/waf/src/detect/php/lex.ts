/**
 * A small PHP lexer, enough to see code the way the interpreter would: comments (`/* *\/`, `//`,
 * `#`) and whitespace vanish (they are how `exec /*x*\/ (…)` hides a call), string literals keep
 * their decoded content (`"\x73ystem"` is "system"), variables keep their `$`s. It never fails: an
 * unterminated string or comment runs to the end. Bounded in tokens.
 */

export type PhpTokenKind = 'var' | 'ident' | 'string' | 'number' | 'punct';

export interface PhpToken {
  kind: PhpTokenKind;
  /** var: `$name` / `$$name` / `$` (before `{`); ident: the name; string: decoded content; punct: `(`, `->`, `::`… */
  text: string;
  start: number;
  end: number;
  /** Whitespace or a comment separated this token from the previous one. */
  spaced: boolean;
  /** A comment (not only whitespace) separated it: code hiding itself. */
  commented: boolean;
}

const maxTokens = 4000;

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c >= 0x80;
}
function isIdentChar(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57);
}
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12;
}

export function lexPhp(input: string): PhpToken[] {
  const out: PhpToken[] = [];
  const n = input.length;
  let i = 0;
  let spaced = false;
  let commented = false;
  const push = (kind: PhpTokenKind, text: string, start: number, end: number) => {
    out.push({ kind, text, start, end, spaced, commented });
    spaced = false;
    commented = false;
  };
  while (i < n && out.length < maxTokens) {
    const c = input.charCodeAt(i);
    if (isSpace(c)) {
      spaced = true;
      i++;
      continue;
    }
    // Comments: /* … */, // … and # … to the end of the line.
    if (c === 47 && input.charCodeAt(i + 1) === 42) {
      const close = input.indexOf('*/', i + 2);
      i = close < 0 ? n : close + 2;
      spaced = commented = true;
      continue;
    }
    if ((c === 47 && input.charCodeAt(i + 1) === 47) || (c === 35 && input.charCodeAt(i + 1) !== 91)) {
      let eol = i;
      while (eol < n && input.charCodeAt(eol) !== 10 && input.charCodeAt(eol) !== 13) eol++;
      i = eol;
      spaced = commented = true;
      continue;
    }
    if (c === 36 /* $ */) {
      let j = i;
      while (j < n && input.charCodeAt(j) === 36) j++;
      let k = j;
      if (k < n && isIdentStart(input.charCodeAt(k))) {
        while (k < n && isIdentChar(input.charCodeAt(k))) k++;
      }
      push('var', input.slice(i, k), i, k);
      i = k;
      continue;
    }
    if (isIdentStart(c)) {
      let k = i + 1;
      while (k < n && (isIdentChar(input.charCodeAt(k)) || (input.charCodeAt(k) === 92 && isIdentStart(input.charCodeAt(k + 1))))) k++;
      push('ident', input.slice(i, k), i, k);
      i = k;
      continue;
    }
    if (c >= 48 && c <= 57) {
      let k = i + 1;
      while (k < n && isIdentChar(input.charCodeAt(k))) k++;
      push('number', input.slice(i, k), i, k);
      i = k;
      continue;
    }
    // An apostrophe inside a word ("don't") is prose, not a string: PHP never glues a quote to a name.
    if (c === 39 && i > 0 && isIdentChar(input.charCodeAt(i - 1))) {
      push('punct', "'", i, i + 1);
      i++;
      continue;
    }
    if (c === 39 || c === 34 || c === 96) {
      const { text, end } = readString(input, i);
      // Backticks are PHP's shell_exec: keep them visible as their own punctuation before the string.
      if (c === 96) push('punct', '`', i, i + 1);
      push('string', text, i, end);
      i = end;
      continue;
    }
    const two = input.slice(i, i + 2);
    if (two === '->' || two === '::' || two === '?>' || two === '<?') {
      push('punct', two, i, i + 2);
      i += 2;
      continue;
    }
    push('punct', input[i]!, i, i + 1);
    i++;
  }
  return out;
}

/** A quoted literal from `at` (the quote); double quotes decode PHP's escapes. */
function readString(input: string, at: number): { text: string; end: number } {
  const quote = input[at]!;
  let text = '';
  let i = at + 1;
  while (i < input.length) {
    const ch = input[i]!;
    if (ch === quote) return { text, end: i + 1 };
    if (ch === '\\' && i + 1 < input.length) {
      const next = input[i + 1]!;
      if (quote === "'") {
        text += next === "'" || next === '\\' ? next : '\\' + next;
        i += 2;
        continue;
      }
      if (next === 'x' && /^[0-9a-fA-F]{1,2}/.test(input.slice(i + 2, i + 4))) {
        const hex = /^[0-9a-fA-F]{1,2}/.exec(input.slice(i + 2, i + 4))![0];
        text += String.fromCharCode(parseInt(hex, 16));
        i += 2 + hex.length;
        continue;
      }
      if (/[0-7]/.test(next)) {
        const oct = /^[0-7]{1,3}/.exec(input.slice(i + 1, i + 4))![0];
        text += String.fromCharCode(parseInt(oct, 8) & 0xff);
        i += 1 + oct.length;
        continue;
      }
      if (next === 'u' && input[i + 2] === '{') {
        const close = input.indexOf('}', i + 3);
        const cp = close > 0 ? parseInt(input.slice(i + 3, close), 16) : NaN;
        if (Number.isFinite(cp) && cp <= 0x10ffff) {
          text += String.fromCodePoint(cp);
          i = close + 1;
          continue;
        }
      }
      text += next === 'n' ? '\n' : next === 't' ? '\t' : next;
      i += 2;
      continue;
    }
    text += ch;
    i++;
  }
  return { text, end: input.length };
}
