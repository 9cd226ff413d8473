/**
 * GraphQL's lexical grammar (spec, "Source Text"): names, punctuators, numbers and strings; white
 * space, line ends, commas, the byte order mark and `#` comments are ignored. A character the
 * grammar has no place for makes the text no GraphQL at all (null): prose with an apostrophe or a
 * search term with `%` stops here, cheaply.
 */

export type TokenKind = 'name' | 'punct' | 'number' | 'string';

export interface Token {
  kind: TokenKind;
  /** The name, the punctuator (`...` as one), or the number's text; '' for strings (their content is never needed). */
  text: string;
  /** Offset in the source: evidence is cut from here. */
  at: number;
}

const punctuators = new Set(['!', '$', '&', '(', ')', ':', '=', '@', '[', ']', '{', '|', '}']);

function isNameStart(c: number): boolean {
  return c === 95 || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function isNameContinue(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** The end of a string starting at `at` (a `"` or `"""`); -1 when it never closes on its line. */
function stringEnd(source: string, at: number): number {
  if (source.startsWith('"""', at)) {
    for (let i = at + 3; i < source.length; i++) {
      if (source.charCodeAt(i) === 92 && source.startsWith('"""', i + 1)) i += 3;
      else if (source.startsWith('"""', i)) return i + 3;
    }
    return -1;
  }
  for (let i = at + 1; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 34) return i + 1;
    else if (c === 10 || c === 13) return -1;
  }
  return -1;
}

/** The tokens of `source`, at most `maxTokens` (the rest is not read); null when it is not GraphQL text. */
export function tokenize(source: string, maxTokens: number): Token[] | null {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length && tokens.length < maxTokens) {
    const c = source.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 44 || c === 0xfeff) {
      i++;
    } else if (c === 35) {
      while (i < source.length && source.charCodeAt(i) !== 10 && source.charCodeAt(i) !== 13) i++;
    } else if (isNameStart(c)) {
      const start = i;
      while (i < source.length && isNameContinue(source.charCodeAt(i))) i++;
      tokens.push({ kind: 'name', text: source.slice(start, i), at: start });
    } else if (c === 45 || isDigit(c)) {
      const m = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(source.slice(i, i + 64));
      if (!m) return null;
      tokens.push({ kind: 'number', text: m[0], at: i });
      i += m[0].length;
    } else if (c === 34) {
      const end = stringEnd(source, i);
      if (end < 0) return null;
      tokens.push({ kind: 'string', text: '', at: i });
      i = end;
    } else if (c === 46) {
      if (!source.startsWith('...', i)) return null;
      tokens.push({ kind: 'punct', text: '...', at: i });
      i += 3;
    } else if (punctuators.has(source[i]!)) {
      tokens.push({ kind: 'punct', text: source[i]!, at: i });
      i++;
    } else {
      return null;
    }
  }
  return tokens;
}
