/**
 * Calls in PHP's token stream and what they call. A call is a `(` after a callee expression:
 *  - a name: `system('id')`, `exec /*x*\/ (…)` (comments between are evasion);
 *  - a variable: `$a(1)`, `$$b(2)`, `$__['o'](5)`, `${'a'}(11)`, `$obj->$m()`, `Foo::$v()` — a variable
 *    function, the core of every PHP web shell;
 *  - an expression that evaluates to a name: `"system"(…)`, `"sys"."tem"(…)`, `(system)(…)`,
 *    `[system][0](…)`, `(string)"system"(…)`, `define('x','sys'.'tem');(x)(…)`.
 * The callee's name is evaluated from its string literals and bare words (PHP < 8 reads an unknown
 * bare word as its own name), constants defined earlier in the value substituted.
 */
import { builtinFunctions, dangerousFunctions, phpKeywords } from './functions.ts';
import type { PhpToken } from './lex.ts';

export type CalleeShape = 'name' | 'variable' | 'expression';

export interface PhpCall {
  shape: CalleeShape;
  /** Lower-case function name ('' for a variable callee). */
  name: string;
  /** Index of the first token of the callee and of the `(`. */
  first: number;
  paren: number;
  /** A comment sits between the callee and its `(`, or inside the callee. */
  commented: boolean;
  /** The argument list is empty or holds code (a literal, a variable, a nested call). */
  codeArguments: boolean;
  /** The first argument is one bare word: `exec (blah)`, `system(s)` — what prose writes too. */
  bareWordArgument: boolean;
  /** The callee is `${name}`, which JavaScript and shell templates write too. */
  templateLike?: boolean;
  /** The first token inside the parentheses. */
  firstArgument?: PhpToken;
  /** `name()`: nothing between the parentheses. */
  emptyArguments: boolean;
  /** Nothing follows the `(`: a probe cut off (`base64_decode(`), or prose ("exec (").*/
  cutOff: boolean;
}

const maxCalls = 64;

/** Words that are English too: as a callee with a bare-word argument they read as prose ("file(s)"). */
export const englishCallees = new Set(['system', 'exec', 'file', 'copy', 'link', 'touch', 'mail', 'glob', 'print', 'pack', 'unpack', 'include', 'require', 'extract', 'rename', 'assert', 'count', 'range', 'date', 'time', 'round', 'max', 'min', 'trim', 'chr', 'ord', 'define', 'echo', 'die', 'exit', 'sleep', 'constant']);

export function findCalls(tokens: readonly PhpToken[]): PhpCall[] {
  const calls: PhpCall[] = [];
  const constants = new Map<string, string>();
  for (let i = 1; i < tokens.length && calls.length < maxCalls; i++) {
    const t = tokens[i]!;
    if (t.kind !== 'punct' || t.text !== '(') continue;
    const prev = tokens[i - 1]!;
    const args = argumentShape(tokens, i);
    // define('x', 'sys'.'tem'): remember the constant for a later (x)(…).
    if (prev.kind === 'ident' && prev.text.toLowerCase() === 'define') recordConstant(tokens, i, constants);
    if (prev.kind === 'ident') {
      const before = tokens[i - 2];
      if (before && before.kind === 'ident' && /^(?:function|fn|new|class)$/i.test(before.text)) continue; // a declaration
      if (before && before.kind === 'punct' && (before.text === '->' || before.text === '::')) continue; // a method: $db->query(
      // After a dot it is a method in JavaScript (`re.exec(s)`); PHP concatenates only after a literal or a variable.
      if (before && before.kind === 'punct' && before.text === '.' && !(tokens[i - 3]?.kind === 'string' || tokens[i - 3]?.kind === 'var')) continue;
      const name = (constants.get(prev.text) ?? prev.text).toLowerCase();
      if (phpKeywords.has(name)) continue;
      calls.push({ shape: 'name', name, first: i - 1, paren: i, commented: t.commented, ...args });
      continue;
    }
    // A bare `$(` is shell substitution or jQuery, not a PHP variable.
    if (prev.kind === 'var' && /[^$]/.test(prev.text)) {
      const first = memberStart(tokens, i - 1);
      calls.push({ shape: 'variable', name: '', first, paren: i, commented: t.commented, ...args });
      continue;
    }
    if (prev.kind === 'string' || (prev.kind === 'punct' && (prev.text === ')' || prev.text === ']' || prev.text === '}'))) {
      const first = expressionStart(tokens, i - 1);
      if (first < 0) continue;
      const span = tokens.slice(first, i);
      // `$a[]()`, `${}()`, `$a{}()`: an empty subscript or brace evaluates nothing, PHP refuses it.
      if (span.some((s, k) => (s.text === '[' || s.text === '{') && s.kind === 'punct' && (span[k + 1]?.text === ']' || span[k + 1]?.text === '}'))) continue;
      if (span.some((s) => s.kind === 'var' || (s.kind === 'punct' && s.text === '$'))) {
        const templateLike = span.length === 4 && span[0]!.text === '$' && span[1]!.text === '{' && span[2]!.kind === 'ident' && span[3]!.text === '}';
        calls.push({ shape: 'variable', name: '', first, paren: i, commented: t.commented || span.some((s) => s.commented), templateLike, ...args });
        continue;
      }
      // `[link](https://…)` is a Markdown link: a lone bracketed word needs real call arguments.
      if (span.length === 3 && span[0]!.text === '[' && !args.codeArguments) continue;
      const name = evaluateName(span, constants);
      if (name) calls.push({ shape: 'expression', name, first, paren: i, commented: t.commented || span.some((s) => s.commented), ...args });
    }
  }
  return calls;
}

export function isDangerous(name: string): boolean {
  return dangerousFunctions.has(name);
}
export function isBuiltin(name: string): boolean {
  return builtinFunctions.has(name);
}

function argumentShape(
  tokens: readonly PhpToken[],
  paren: number,
): { codeArguments: boolean; bareWordArgument: boolean; cutOff: boolean; emptyArguments: boolean; firstArgument?: PhpToken } {
  const shape = argumentKind(tokens, paren);
  const next = tokens[paren + 1];
  return { ...shape, firstArgument: next, cutOff: next === undefined, emptyArguments: next?.kind === 'punct' && next.text === ')' };
}

function argumentKind(tokens: readonly PhpToken[], paren: number): { codeArguments: boolean; bareWordArgument: boolean } {
  const a = tokens[paren + 1];
  const b = tokens[paren + 2];
  if (!a) return { codeArguments: true, bareWordArgument: false }; // `base64_decode(` cut off: an eval probe
  if (a.kind === 'punct' && a.text === ')') return { codeArguments: true, bareWordArgument: false };
  if (a.kind === 'ident' && b && b.kind === 'punct' && b.text === ')') return { codeArguments: false, bareWordArgument: true };
  if (a.kind === 'string' || a.kind === 'var' || a.kind === 'number') return { codeArguments: true, bareWordArgument: false };
  if (a.kind === 'ident' && b && b.kind === 'punct' && (b.text === '(' || b.text === '::' || b.text === ',')) return { codeArguments: true, bareWordArgument: false };
  if (a.kind === 'punct' && (a.text === '@' || a.text === '`' || a.text === '[' || a.text === '$')) return { codeArguments: true, bareWordArgument: false };
  return { codeArguments: false, bareWordArgument: false };
}

/** `$a`, `$__['o']`, `$x->y->$z`: back from a variable over the member chain it closes. */
function memberStart(tokens: readonly PhpToken[], at: number): number {
  let i = at;
  while (i >= 2) {
    const p = tokens[i - 1]!;
    if (p.kind === 'punct' && (p.text === '->' || p.text === '::')) i -= 2;
    else break;
  }
  return Math.max(i, 0);
}

/**
 * Back over a callee expression from its last token: operands (strings, bare words, variables,
 * bracket groups) joined by `.`, subscripts (`[system][0]`, `$a{0}`), casts (`(string)"x"`) and
 * `${…}`. Returns the index of its first token, or -1 when the brackets do not balance.
 */
function expressionStart(tokens: readonly PhpToken[], end: number): number {
  let i = end;
  let start = end + 1;
  for (let guard = 0; guard < 64 && i >= 0; guard++) {
    const t = tokens[i]!;
    if (t.kind === 'string' || t.kind === 'ident' || t.kind === 'var' || t.kind === 'number') {
      start = i;
      i--;
    } else if (t.kind === 'punct' && (t.text === ')' || t.text === ']' || t.text === '}')) {
      const open = matchingOpen(tokens, i);
      if (open < 0) return -1;
      start = open;
      i = open - 1;
      const before = tokens[i];
      if (tokens[open]!.text === '{' && before?.kind === 'var' && before.text.endsWith('$')) {
        start = i; // ${…}
        i--;
      }
    } else return -1;
    const p = tokens[i];
    if (!p) return start;
    if (p.kind === 'punct' && p.text === '.') {
      i--;
      continue;
    }
    const subscript = tokens[start]!.text === '[' || tokens[start]!.text === '{';
    if (subscript && (p.kind === 'string' || p.kind === 'ident' || p.kind === 'var' || p.text === ']' || p.text === ')' || p.text === '}')) continue;
    if (p.kind === 'punct' && p.text === ')' && isCast(tokens, i)) {
      start = i - 2;
      return start;
    }
    return start;
  }
  return start;
}

function isCast(tokens: readonly PhpToken[], close: number): boolean {
  const word = tokens[close - 1];
  return tokens[close - 2]?.text === '(' && word?.kind === 'ident' && casts.has(word.text.toLowerCase());
}

function matchingOpen(tokens: readonly PhpToken[], close: number): number {
  let depth = 0;
  for (let k = close; k >= 0 && close - k < 256; k--) {
    const t = tokens[k]!;
    if (t.kind !== 'punct') continue;
    if (t.text === ')' || t.text === ']' || t.text === '}') depth++;
    else if (t.text === '(' || t.text === '[' || t.text === '{') {
      if (--depth === 0) return k;
    }
  }
  return -1;
}

const casts = new Set(['string', 'int', 'array', 'object', 'bool', 'float']);

/** The name a literal callee expression evaluates to: its strings and bare words joined. */
function evaluateName(span: readonly PhpToken[], constants: ReadonlyMap<string, string>): string {
  let name = '';
  for (let k = 0; k < span.length; k++) {
    const s = span[k]!;
    if (s.kind === 'string') name += s.text;
    else if (s.kind === 'ident') {
      const cast = casts.has(s.text.toLowerCase()) && span[k - 1]?.text === '(' && span[k + 1]?.text === ')';
      if (!cast) name += constants.get(s.text) ?? s.text;
    }
    if (name.length > 64) return '';
  }
  return name.toLowerCase();
}

function recordConstant(tokens: readonly PhpToken[], paren: number, constants: Map<string, string>): void {
  const key = tokens[paren + 1];
  const comma = tokens[paren + 2];
  if (!key || key.kind !== 'string' || !comma || comma.text !== ',') return;
  let value = '';
  for (let k = paren + 3; k < tokens.length && k < paren + 40; k++) {
    const t = tokens[k]!;
    if (t.kind === 'punct' && t.text === ')' && tokens[k + 1]?.text !== ']') break;
    if (t.kind === 'string') value += t.text;
  }
  if (value) constants.set(key.text, value);
}
