/**
 * A SQL tokenizer that accepts the union of the common dialects (MySQL, PostgreSQL, MSSQL,
 * Oracle, SQLite), because a WAF does not know which database sits behind the site. It never
 * fails: any character it does not know becomes an `other` token. Comments are recognised the
 * way the databases do (`--`, `#`, `/* … *\/`); MySQL's executable comments `/*!50000 … *\/`
 * are code, so their content is tokenized and the markers dropped.
 */
export type TokenType =
  | 'string' // 'x' "x" (N'x', E'x' prefixes become a word then a string)
  | 'number' // 1 1.5 .5 1e5 0x1F 0b101 x'1F'
  | 'word' // identifiers, `quoted`, [bracketed]
  | 'keyword' // reserved words the grammar uses (text is lower-case)
  | 'variable' // @x @@version :param
  | 'operator' // = <> != < > <= >= <=> + - * / % | & ^ ~ ! || && := :: << >>
  | 'lparen'
  | 'rparen'
  | 'comma'
  | 'semicolon'
  | 'dot'
  | 'comment' // a comment that runs to the end of the value (`--`, `#`, unterminated `/*`)
  | 'other';

export interface Token {
  type: TokenType;
  /** The token's text; lower-cased for words and keywords. */
  text: string;
  /** Offset in the tokenized text. */
  start: number;
  /** For strings: the closing quote was found. */
  closed?: boolean;
}

export interface TokenStream {
  tokens: Token[];
  /** The text used `/* … *\/` between tokens or MySQL executable comments (obfuscation). */
  inlineComments: boolean;
  executableComments: boolean;
  /**
   * A MySQL executable comment opens on a SQL keyword (`/*!50000select`, `/*!UNION*\/`): code hidden
   * from filters that skip comments. Prose and ordinary code never write one.
   */
  executableKeyword: boolean;
  /** Index of the first token after such a comment's opening (for evidence), or -1. */
  executableKeywordAt: number;
  /** A statement keyword split by an empty or short comment (`DR/**\/OP`, `SEL/*x*\/ECT`): filter evasion. */
  splitKeyword: boolean;
  /** A keyword written in alternating case (`UnIoN`, `SeLeCt`): filter evasion, never prose or code style. */
  mixedCase: boolean;
}

/** Lower then upper then lower again inside one word (`sElEct`, `UnIon`); `Select`, `SELECT`, `McX` pass. */
function alternatingCase(word: string): boolean {
  let changes = 0;
  for (let i = 1; i < word.length; i++) {
    const prev = word.charCodeAt(i - 1);
    const c = word.charCodeAt(i);
    const prevLower = prev >= 97 && prev <= 122;
    const lower = c >= 97 && c <= 122;
    const upper = c >= 65 && c <= 90;
    if ((prevLower && upper) || (!prevLower && prev >= 65 && prev <= 90 && lower && i > 1)) changes++;
  }
  return changes >= 2;
}

const keywords = new Set([
  'select', 'union', 'all', 'distinct', 'from', 'where', 'and', 'or', 'xor', 'not', 'null', 'is', 'in',
  'like', 'rlike', 'regexp', 'sounds', 'between', 'exists', 'case', 'when', 'then', 'else', 'end', 'as',
  'order', 'group', 'by', 'having', 'limit', 'offset', 'insert', 'into', 'values', 'update', 'set',
  'delete', 'drop', 'table', 'database', 'create', 'alter', 'truncate', 'exec', 'execute', 'declare',
  'waitfor', 'delay', 'time', 'shutdown', 'procedure', 'outfile', 'dumpfile', 'true', 'false', 'join',
  'inner', 'outer', 'left', 'right', 'cross', 'natural', 'on', 'using', 'top', 'div', 'mod', 'collate',
  'escape', 'asc', 'desc', 'grant', 'revoke', 'replace', 'call', 'if', 'binary', 'interval', 'user',
  'schema', 'view', 'function', 'trigger', 'index', 'with', 'returning', 'fetch', 'rows', 'only',
  'unknown', 'default', 'go', 'begin', 'commit', 'rollback', 'load', 'data', 'infile', 'lines',
  'glob', 'ilike', 'similar', 'notnull', 'isnull', 'any', 'some',
]);

/** Statement words worth rejoining when a comment splits them. */
const splitKeywords = new Set(['select', 'union', 'insert', 'update', 'delete', 'drop', 'create', 'alter', 'truncate', 'exec', 'execute', 'declare', 'waitfor', 'shutdown']);

// PostgreSQL's JSON operators (`->>`, `#>>`, `->`, `<@`, `@>`, `?|`, `?&`, `#>`) are read whole so
// `@>` is no variable and `#>` no comment.
const threeCharOperators = new Set(['<=>', '!<>', '->>', '#>>']);
const twoCharOperators = new Set(['<>', '!=', '<=', '>=', '||', '&&', ':=', '::', '<<', '>>', '!<', '!>', '==', '-=', '+=', '->', '<@', '@>', '?|', '?&', '#>', '#-']);
const oneCharOperators = '=<>+-*/%|&^~!?';

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isWordChar(c: string | undefined): boolean {
  return c !== undefined && isWordCode(c.charCodeAt(0));
}

/** The same test on a character code (NaN past the end is none): the word loop reads codes, no one-character strings. */
function isWordCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36 || code >= 128;
}

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\v' || c === '\f' || c === '\u00a0';
}

/** Reads a quoted run from `at` (the opening quote); doubled quotes and backslashes escape. */
function readQuoted(text: string, at: number, quote: string, backslash: boolean): { end: number; closed: boolean } {
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (backslash && c === '\\') {
      i++;
      continue;
    }
    if (c === quote) {
      if (text[i + 1] === quote) {
        i++;
        continue;
      }
      return { end: i + 1, closed: true };
    }
  }
  return { end: text.length, closed: false };
}

function readNumber(text: string, at: number): number {
  let i = at;
  if (text[i] === '0' && (text[i + 1] === 'x' || text[i + 1] === 'X')) {
    i += 2;
    while (i < text.length && /[0-9a-fA-F]/.test(text[i]!)) i++;
    return i;
  }
  if (text[i] === '0' && (text[i + 1] === 'b' || text[i + 1] === 'B') && (text[i + 2] === '0' || text[i + 2] === '1')) {
    i += 2;
    while (text[i] === '0' || text[i] === '1') i++;
    return i;
  }
  while (isDigit(text[i])) i++;
  if (text[i] === '.') {
    i++;
    while (isDigit(text[i])) i++;
  }
  if ((text[i] === 'e' || text[i] === 'E') && (isDigit(text[i + 1]) || ((text[i + 1] === '+' || text[i + 1] === '-') && isDigit(text[i + 2])))) {
    i += 2;
    while (isDigit(text[i])) i++;
  }
  return i;
}

/**
 * `backslashEscapes`: MySQL reads `\'` inside a string as an escaped quote; standard SQL
 * (PostgreSQL, SQLite, MSSQL, Oracle) reads the backslash as a plain character. Callers try both.
 */
export function tokenizeSql(text: string, maxTokens = 4096, backslashEscapes = true): TokenStream {
  const tokens: Token[] = [];
  let inlineComments = false;
  let executableComments = false;
  let executableKeyword = false;
  let executableKeywordAt = -1;
  let splitKeyword = false;
  let mixedCase = false;
  let insideExecutable = false;
  let i = 0;
  while (i < text.length && tokens.length < maxTokens) {
    const c = text[i]!;
    const next = text[i + 1];
    if (isSpace(c)) {
      i++;
      continue;
    }
    // Comments.
    if ((c === '-' && next === '-') || (c === '#' && next !== '>' && next !== '-')) {
      tokens.push({ type: 'comment', text: c === '#' ? '#' : '--', start: i });
      const eol = text.indexOf('\n', i);
      if (eol < 0) break;
      i = eol + 1;
      continue;
    }
    if (c === '/' && next === '*') {
      if (text[i + 2] === '!') {
        executableComments = true;
        insideExecutable = true;
        i += 3;
        while (isDigit(text[i])) i++;
        let from = i;
        while (isSpace(text[from])) from++;
        let end = from;
        while (isWordChar(text[end])) end++;
        if (end > from && !executableKeyword && keywords.has(text.slice(from, end).toLowerCase())) {
          executableKeyword = true;
          executableKeywordAt = tokens.length;
        }
        continue;
      }
      const close = text.indexOf('*/', i + 2);
      if (close < 0) {
        tokens.push({ type: 'comment', text: '/*', start: i });
        break;
      }
      inlineComments = true;
      const before = tokens[tokens.length - 1];
      if (!splitKeyword && before !== undefined && (before.type === 'word' || before.type === 'keyword') && before.start + before.text.length === i && isWordChar(text[close + 2])) {
        let end = close + 2;
        while (isWordChar(text[end])) end++;
        if (splitKeywords.has(before.text + text.slice(close + 2, end).toLowerCase())) splitKeyword = true;
      }
      i = close + 2;
      continue;
    }
    if (insideExecutable && c === '*' && next === '/') {
      insideExecutable = false;
      i += 2;
      continue;
    }
    const start = i;
    // Strings and quoted identifiers.
    if (c === "'" || c === '"') {
      const { end, closed } = readQuoted(text, i, c, backslashEscapes);
      tokens.push({ type: 'string', text: text.slice(i, end), start, closed });
      i = end;
      continue;
    }
    if (c === '`') {
      const { end, closed } = readQuoted(text, i, '`', false);
      // An unclosed backtick is prose (`quoted' in GNU style), not an identifier.
      tokens.push({ type: closed ? 'word' : 'other', text: text.slice(i + 1, end - 1).toLowerCase(), start });
      i = end;
      continue;
    }
    if (c === '[') {
      const close = text.indexOf(']', i + 1);
      if (close > i && close - i < 130 && !text.slice(i + 1, close).includes('[')) {
        tokens.push({ type: 'word', text: text.slice(i + 1, close).toLowerCase(), start });
        i = close + 1;
        continue;
      }
    }
    // Numbers (a digit run glued to letters is an identifier: MySQL reads `1st` as a name).
    if (isDigit(c) || (c === '.' && isDigit(next))) {
      const end = readNumber(text, i);
      if (!isWordChar(text[end]) || /^0[xXbB]/.test(text.slice(i, i + 2))) {
        tokens.push({ type: 'number', text: text.slice(i, end), start });
        i = end;
        continue;
      }
    }
    if ((c === 'x' || c === 'X' || c === 'b' || c === 'B') && next === "'") {
      const { end } = readQuoted(text, i + 1, "'", false);
      tokens.push({ type: 'number', text: text.slice(i, end), start });
      i = end;
      continue;
    }
    if (isWordChar(c)) {
      let end = i + 1;
      while (isWordCode(text.charCodeAt(end))) end++;
      const raw = text.slice(i, end);
      const word = raw.toLowerCase();
      const keyword = keywords.has(word);
      if (keyword && !mixedCase && raw !== word && alternatingCase(raw)) mixedCase = true;
      tokens.push({ type: keyword ? 'keyword' : 'word', text: word, start });
      i = end;
      continue;
    }
    if ((c === '@' && next !== '>') || (c === ':' && isWordChar(next) && !isDigit(next))) {
      let end = i + 1;
      if (text[end] === '@') end++;
      while (isWordChar(text[end])) end++;
      tokens.push({ type: 'variable', text: text.slice(i, end).toLowerCase(), start });
      i = end;
      continue;
    }
    if (c === '(') tokens.push({ type: 'lparen', text: c, start });
    else if (c === ')') tokens.push({ type: 'rparen', text: c, start });
    else if (c === ',') tokens.push({ type: 'comma', text: c, start });
    else if (c === ';') tokens.push({ type: 'semicolon', text: c, start });
    else if (c === '.') tokens.push({ type: 'dot', text: c, start });
    else if (threeCharOperators.has(text.slice(i, i + 3))) {
      tokens.push({ type: 'operator', text: text.slice(i, i + 3), start });
      i += 3;
      continue;
    } else if (twoCharOperators.has(c + (next ?? ''))) {
      tokens.push({ type: 'operator', text: c + next, start });
      i += 2;
      continue;
    } else if (oneCharOperators.includes(c)) tokens.push({ type: 'operator', text: c, start });
    else tokens.push({ type: 'other', text: c, start });
    i++;
  }
  return { tokens, inlineComments, executableComments, executableKeyword, executableKeywordAt, splitKeyword, mixedCase };
}
