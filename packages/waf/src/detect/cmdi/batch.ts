/**
 * cmd.exe's two control statements, read as cmd.exe reads them: `FOR [/D|/R [path]|/L|/F ["opts"]]
 * %x IN (set) DO command` and `IF [/I] [NOT] condition command`, where the condition is `EXIST path`,
 * `DEFINED name`, `ERRORLEVEL n`, `CMDEXTVERSION n`, `a==b` or `a EQU|NEQ|LSS|LEQ|GTR|GEQ b`.
 * A statement starts at the beginning of the value or after a command separator (`&`, `|`, `;`,
 * a newline, `(`). English has "for" and "if", but not "for %a in (x) do y", "if a==b" or
 * "if exist file.txt echo"; the readings below need the parts only batch files have.
 */
import { resolveCommand } from './commands.ts';

export interface BatchStatement {
  keyword: 'for' | 'if';
  /** Offset of the keyword in the value. */
  at: number;
}

/** A cmd token: a "quoted" run, or a run up to a blank (parentheses kept as their own tokens). */
interface CmdToken {
  text: string;
  quoted: boolean;
}

const maxTokens = 24;

function tokens(text: string, from: number): CmdToken[] {
  const out: CmdToken[] = [];
  let i = from;
  while (i < text.length && out.length < maxTokens) {
    const c = text[i]!;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '\n' || c === '\r' || c === '&' || c === '|') break;
    if (c === '(' || c === ')') {
      out.push({ text: c, quoted: false });
      i++;
      continue;
    }
    if (c === '"' || (c === '\\' && text[i + 1] === '"')) {
      // `\"` is how the value escaped a quote for the shell that was meant to receive it.
      const open = c === '"' ? 1 : 2;
      const close = text.indexOf('"', i + open);
      const end = close < 0 ? text.length : close + 1;
      out.push({ text: text.slice(i, end), quoted: true });
      i = end;
      continue;
    }
    let j = i;
    while (j < text.length && !' \t\n\r&|()'.includes(text[j]!)) j++;
    out.push({ text: text.slice(i, j), quoted: false });
    i = j;
  }
  return out;
}

/** Built-ins and commands that follow `DO` or an `IF` condition in real batch files. */
const batchCommands = new Set(['echo', 'goto', 'call', 'exit', 'set', 'cd', 'del', 'copy', 'move', 'type', 'start', 'cmd', 'rem', 'pause', 'shift', 'dir', 'md', 'rd', 'mkdir', 'ren', 'setlocal', 'endlocal', 'pushd', 'popd', 'title', 'cls', 'ver', 'vol', 'erase', 'for', 'if', '(']);

function isCommand(token: CmdToken | undefined): boolean {
  if (!token) return false;
  const word = token.text.replace(/^@/, '').toLowerCase();
  return batchCommands.has(word) || resolveCommand(word, false) !== null;
}

/**
 * `%a`, `%%G`, `%~`, `%1`: a FOR variable is `%` (or `%%` in a batch file) and one character;
 * `%variable` as the syntax is written in the help text.
 */
function isForVariable(text: string): boolean {
  return /^%%?[^\s%]$/.test(text) || text === '%%' || /^%%?[A-Za-z]\w{1,19}$/.test(text);
}

function readFor(t: CmdToken[]): boolean {
  let k = 1;
  // Switches, each with its optional parameter: /R takes a path, /F a quoted option string.
  while (k < t.length && /^\/[a-z]$/i.test(t[k]!.text)) {
    k++;
    if (k < t.length && !isForVariable(t[k]!.text) && !/^\/[a-z]$/i.test(t[k]!.text) && (t[k]!.quoted || /[\\:]/.test(t[k]!.text))) k++;
  }
  if (!t[k] || !isForVariable(t[k]!.text)) return false;
  if (t[k + 1]?.text.toLowerCase() !== 'in' || t[k + 2]?.text !== '(') return false;
  let close = k + 3;
  while (close < t.length && t[close]!.text !== ')') close++;
  return close < t.length && t[close + 1]?.text.toLowerCase() === 'do' && t[close + 2] !== undefined;
}

const compareOperators = new Set(['equ', 'neq', 'lss', 'leq', 'gtr', 'geq']);

/**
 * Code of other languages writes `if (c == '#') {`, `if ($a == $b)`, `if a == b:` or `if … then`:
 * braces, semicolons, `&&`, sigils, a Python colon or `then` are no part of cmd.exe's IF.
 */
function otherLanguage(t: CmdToken[]): boolean {
  return t.some((x) => !x.quoted && (/^[{}]$|\{$|;|&&|^\$|:$/.test(x.text) || x.text.toLowerCase() === 'then'));
}

function readIf(t: CmdToken[]): boolean {
  if (otherLanguage(t)) return false;
  let k = 1;
  if (t[k]?.text.toLowerCase() === '/i') k++;
  if (t[k]?.text.toLowerCase() === 'not') k++;
  const word = t[k]?.text.toLowerCase();
  if (word === 'exist' || word === 'defined') {
    const operand = t[k + 1];
    if (!operand) return false;
    const pathLike = operand.quoted || /[.\\:%]/.test(operand.text) || operand.text === '(';
    // "if defined by admins, …" is English: the operand must look like a path or a variable,
    // or a command must follow it.
    const next = operand.text === '(' ? t.findIndex((x, j) => j > k + 1 && x.text === ')') + 1 : k + 2;
    return next > 0 && (isCommand(t[next]) || (pathLike && t[next] !== undefined));
  }
  if (word === 'errorlevel' || word === 'cmdextversion') return /^\d+$/.test(t[k + 1]?.text ?? '') && t[k + 2] !== undefined;
  // Comparisons: `a==b` glued, `a == b` spaced, `(a) equ (b)`, `"%~1"=="/?"`. A parenthesised
  // `==` (`if (c == 0)`) is C's unless a %variable or an EQU-style operator says cmd.exe.
  if (t[k]?.text === '(' && groupedComparison(t, k)) return true;
  const rest = t.slice(k, k + 8);
  if (t[k]?.text === '(' && !rest.some((x) => x.text.includes('%') || compareOperators.has(x.text.toLowerCase()))) return false;
  for (let j = 0; j < rest.length; j++) {
    const text = rest[j]!.text;
    if (!rest[j]!.quoted && /^[^=]*={2,3}[^=]*$/.test(text) && (text.length > 2 || (j > 0 && j + 1 < rest.length))) return true;
    if (compareOperators.has(text.toLowerCase()) && j > 0 && j + 1 < rest.length) return true;
  }
  return false;
}

/**
 * `if (AA) == (AA) echo same`: both operands in their own parentheses, `==` between the groups and
 * a command after them. C and JavaScript put the comparison inside one pair (`if (a == b)`), and
 * never follow it with a bare command word.
 */
function groupedComparison(t: CmdToken[], open: number): boolean {
  const close = closingParen(t, open);
  if (close < 0 || t[close + 1]?.text !== '==' || t[close + 1]!.quoted) return false;
  const right = close + 2;
  const after = t[right]?.text === '(' ? closingParen(t, right) + 1 : right + 1;
  return after > 0 && isCommand(t[after]);
}

function closingParen(t: CmdToken[], open: number): number {
  let depth = 0;
  for (let j = open; j < t.length; j++) {
    if (t[j]!.quoted) continue;
    if (t[j]!.text === '(') depth++;
    else if (t[j]!.text === ')' && --depth === 0) return j;
  }
  return -1;
}

/** The first FOR or IF statement in the value, or null. */
export function findBatchStatement(value: string): BatchStatement | null {
  const limit = Math.min(value.length, 4096);
  // Statement starts: the value's start and the character after each separator, blanks and `@`
  // skipped. One pass over the value, no copy of it (this runs on every value).
  let at = 0;
  while (at < limit) {
    let c = value.charCodeAt(at);
    while (at < limit && (c === 32 || c === 9 || c === 64)) c = value.charCodeAt(++at);
    if ((c | 0x20) === 0x66 || (c | 0x20) === 0x69) {
      const found = statementAt(value, at);
      if (found) return found;
    }
    while (at < limit && !isSeparator(value.charCodeAt(at))) at++;
    at++;
  }
  return null;
}

/** & | ; newline ( */
function isSeparator(c: number): boolean {
  return c === 38 || c === 124 || c === 59 || c === 10 || c === 13 || c === 40;
}

function statementAt(value: string, at: number): BatchStatement | null {
  const c = value.charCodeAt(at) | 0x20;
  const keyword = c === 0x66 /* f */ && (value.charCodeAt(at + 1) | 0x20) === 0x6f && (value.charCodeAt(at + 2) | 0x20) === 0x72 ? 'for' : c === 0x69 /* i */ && (value.charCodeAt(at + 1) | 0x20) === 0x66 ? 'if' : null;
  if (!keyword) return null;
  const after = value[at + keyword.length];
  // `if/i a==b` glues the switch; otherwise a blank (or, for IF, a parenthesis) follows the keyword.
  if (after !== ' ' && after !== '\t' && after !== '/' && !(keyword === 'if' && after === '(')) return null;
  const t = tokens(value, at + keyword.length);
  t.unshift({ text: keyword, quoted: false });
  return (keyword === 'for' ? readFor(t) : readIf(t)) ? { keyword, at } : null;
}
