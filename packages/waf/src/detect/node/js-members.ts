/**
 * JavaScript member chains that reach Node's process from an evaluated expression. A chain is
 * read as the engine would: `root(.name | ["name"] | [expr] | (args))*`, so `process["mainModule"]`,
 * `process . binding(x)` and `require.main.constructor._load('fs')` are the same thing written
 * differently. What a chain reaches decides:
 *  - `constructor.constructor` (Function, the sandbox escape), `process.mainModule`,
 *    `process.binding`, `module._load`, `require('child_process')`: clear attacks anywhere but
 *    inside a document;
 *  - a whole value that is a call or an assignment on a Node global (`console.info(1)`,
 *    `module.exports=`): an eval probe, clear;
 *  - a whole value that only names a global's member (`process.env`): suspicious.
 */
import type { DetectorHit } from '../../types.ts';
import { hit } from './hit.ts';

interface Part {
  name: string;
  kind: 'root' | 'dot' | 'string' | 'expr' | 'call';
  /** For calls: the first argument when it is a string literal. */
  argument?: string;
}

interface Chain {
  parts: Part[];
  start: number;
  end: number;
}

const roots = /\b(?:process|require|module|global|globalThis|console|constructor|Function|new|function)\b/g;
/** Cheap pre-check (one pass): the scan runs only where one of the roots occurs at all. */
const rootWords = /process|require|module|global|console|constructor|unction/;
const nodeGlobals = new Set(['process', 'require', 'module', 'global', 'globalthis', 'console', 'buffer']);
const coreModules = new Set(['child_process', 'fs', 'net', 'vm', 'os', 'http', 'https', 'dgram', 'cluster', 'worker_threads', 'module', 'process', 'node:child_process', 'node:fs', 'node:vm', 'node:net']);
const processReach = new Set(['mainmodule', 'binding', '_linkedbinding', 'dlopen', 'kill', 'exit', 'abort', 'chdir', 'setuid']);
const maxChains = 32;

/** `\u006f`, `\u{6f}`: an escape JavaScript reads inside an identifier as the letter itself. */
const letterEscape = /\\u(?:00(?:[46][1-9a-f]|[57][0-9a]|5f|24)|\{0*(?:[46][1-9a-f]|[57][0-9a]|5f|24)\})/gi;

export function judgeMemberChains(value: string): DetectorHit | null {
  // A React Server Components reference (`"$7:Module:prototype"`) walks its path with no JS word in it.
  const flight = findFlightReference(value);
  if (flight >= 0) return hit('node.flight_reference', value, flight, 2);
  if (value.includes('\\u')) {
    // `c\u006fnsole.info(1)`: JSON and JS encoders escape what is not ASCII, never a plain letter;
    // one escaped inside an identifier is there to hide the word from filters, so what the
    // unescaped chain reaches is a clear attack.
    // When the chain reads the same without unescaping (`console.log("\u0048ello")`, a post showing
    // escapes inside a string), the escape hid nothing and the chain is judged as written.
    const unescaped = value.replace(letterEscape, (e) => String.fromCharCode(parseInt(e.replace(/[^0-9a-f]/gi, '').slice(-4), 16)));
    if (unescaped !== value) {
      const found = judgeChains(unescaped);
      const raw = judgeChains(value);
      if (found && raw === null) return { ...found, severity: 2 };
      return found && raw && found.severity > raw.severity ? found : raw;
    }
  }
  return judgeChains(value);
}

function judgeChains(value: string): DetectorHit | null {
  if (!rootWords.test(value)) return null;
  // x['constructor']['constructor'] is x.constructor.constructor: read the bracket form as the dot form.
  const text = value.includes('constructor') ? value.replace(/\[\s*(["'`])constructor\1\s*\]/g, '.constructor') : value;
  let best: DetectorHit | null = null;
  roots.lastIndex = 0;
  let count = 0;
  for (let m = roots.exec(text); m && count < maxChains; m = roots.exec(text), count++) {
    const word = m[0];
    if (word === 'new') {
      const call = /^new\s+Function\s*\(\s*(["'`])?/.exec(text.slice(m.index, m.index + 24));
      if (!call) continue;
      // With a string body, or as the whole value, it compiles code; "new Function() in JS" is a title.
      const close = matchingParen(text, text.indexOf('(', m.index));
      const whole = text.slice(0, m.index).trim() === '' && /^[\s;()]*$/.test(text.slice(close));
      const found = hit('node.function_constructor', text, m.index, call[1] || whole ? 2 : 1);
      if (found.severity === 2) return found;
      best ??= found;
      continue;
    }
    if (word === 'function') {
      const found = judgeFunctionLiteral(text, m.index);
      if (found) return found;
      continue;
    }
    const chain = readChain(text, m.index);
    roots.lastIndex = Math.max(roots.lastIndex, chain.end);
    const severity = judgeChain(chain, text);
    if (severity === 0) continue;
    const found = hit('node.process_reach', text, chain.start, severity);
    if (severity === 2) return found;
    best ??= found;
  }
  return best;
}

function judgeChain(chain: Chain, text: string): 0 | 1 | 2 {
  const parts = chain.parts;
  if (parts.length < 2) return 0;
  const names = parts.map((p) => p.name.toLowerCase());
  for (let i = 0; i + 1 < parts.length; i++) {
    const a = names[i]!;
    const b = names[i + 1]!;
    if (a === 'constructor' && b === 'constructor') return 2;
    if (a === 'process' && processReach.has(b)) return 2;
    if ((a === 'require' || a === 'module') && (b === 'main' || b === 'constructor' || b === '_load' || b === 'cache')) return 2;
    if (b === '_load' && parts[i + 2]?.kind === 'call') return 2;
    // process[x], require[x]: a computed member, chosen by the attacker (`process[req.query.a]`).
    if ((a === 'process' || a === 'require') && i === 0 && (parts[1]!.kind === 'expr' || parts[1]!.kind === 'string')) return 2;
  }
  const root = names[0]!;
  const before = text.slice(0, chain.start).trim();
  if (root === 'require' && parts[1]!.kind === 'call' && coreModules.has((parts[1]!.argument ?? '').toLowerCase())) {
    // child_process and vm run code wherever they are loaded; fs, net… in a sentence are a question about them.
    const module = parts[1]!.argument!.toLowerCase().replace(/^node:/, '');
    const whole = before === '' && /^[\s;]*$/.test(text.slice(chain.end));
    // Used on the spot (`require('fs').readFileSync(…)`) it is an expression doing something.
    const used = parts.length > 2 && parts.slice(2).some((p) => p.kind === 'call');
    return module === 'child_process' || module === 'vm' || whole || used ? 2 : 1;
  }
  if (root === 'function' && parts[1]!.kind === 'call' && parts[1]!.argument !== undefined) return 2; // Function("return process")
  if (!nodeGlobals.has(root)) return 0;
  // The whole value is the expression (a statement end, an assignment or nothing after it).
  const after = text.slice(chain.end).trim();
  if (before.length > 0 && !/^[#$]?\{$/.test(before)) return 0;
  const assignment = after.startsWith('=') && !after.startsWith('==');
  if (!(after === '' || after === ';' || assignment || /^\}\s*$/.test(after))) return 0;
  const called = parts.some((p) => p.kind === 'call');
  const computed = parts.some((p) => p.kind === 'string' || p.kind === 'expr');
  // Every member of console is a function: naming one without calling it does nothing, and
  // `console.aws.amazon.com`, `console.cloud.google.com` are host names analytics beacons carry.
  if (root === 'console' && !called && !computed && !assignment) return 0;
  // `process.example.com`, `global.shop.example`: a lower-case dotted name of three labels or more is
  // a host name as the whole value; `process.env.NODE_ENV` is not.
  if (!called && !computed && !assignment && isHostNameShape(text.slice(chain.start, chain.end), parts.length)) return 0;
  // console.log(x) alone is also a developer's search; console["info"](1) is not.
  if (root === 'console') return computed || parts.filter((p) => p.kind === 'call').length > 1 || names.includes('call') ? 2 : 1;
  return called || assignment || computed ? 2 : 1;
}

function isHostNameShape(text: string, labels: number): boolean {
  return labels >= 3 && /^[a-z0-9]+(?:\.[a-z0-9]+)*\.[a-z]{2,24}$/.test(text);
}

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
}
function isIdentChar(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57);
}

function readChain(text: string, start: number): Chain {
  const parts: Part[] = [];
  let i = start;
  const ident = (): string => {
    const s = i;
    while (i < text.length && isIdentChar(text.charCodeAt(i))) i++;
    return text.slice(s, i);
  };
  parts.push({ name: ident(), kind: 'root' });
  for (let guard = 0; guard < 32 && i < text.length; guard++) {
    let j = i;
    while (j < text.length && (text[j] === ' ' || text[j] === '\t')) j++;
    const c = text[j];
    if (c === '.' && isIdentStart(text.charCodeAt(skipSpaces(text, j + 1)))) {
      i = skipSpaces(text, j + 1);
      parts.push({ name: ident(), kind: 'dot' });
    } else if (c === '[' && j === i) {
      // Only glued: "require [UNC] flag", "the process [Ivan]" are prose with a bracketed note.
      const k = skipSpaces(text, j + 1);
      const q = text[k];
      if (q === '"' || q === "'" || q === '`') {
        const close = text.indexOf(q, k + 1);
        if (close < 0) break;
        parts.push({ name: text.slice(k + 1, close), kind: 'string' });
        const end = text.indexOf(']', close);
        i = end < 0 ? text.length : end + 1;
      } else {
        const end = text.indexOf(']', k);
        parts.push({ name: '', kind: 'expr' });
        i = end < 0 ? text.length : end + 1;
      }
    } else if (c === '(') {
      const k = skipSpaces(text, j + 1);
      const q = text[k];
      let argument: string | undefined;
      if (q === '"' || q === "'" || q === '`') {
        const close = text.indexOf(q, k + 1);
        if (close > 0) argument = text.slice(k + 1, close);
      }
      parts.push({ name: '', kind: 'call', argument });
      i = matchingParen(text, j);
    } else break;
  }
  return { parts, start, end: i };
}

function skipSpaces(text: string, at: number): number {
  while (at < text.length && (text[at] === ' ' || text[at] === '\t')) at++;
  return at;
}

function matchingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length && i - open < 4096; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i + 1;
  }
  return text.length;
}

/** A whole value that opens a function literal, `function() {` / `function x(a) {`: code sent as data. */
function judgeFunctionLiteral(text: string, at: number): DetectorHit | null {
  if (text.slice(0, at).trim().length > 0) return null;
  if (!/^function\s*[\w$]*\s*\([\w$,\s]*\)\s*\{/.test(text.slice(at, at + 200))) return null;
  // It ends as code does ("function() {", "…}", "…;"); "function() {} vs () => {}" goes on in words.
  // A definition closed and never called (`function(e){return e.target.id}`) runs nothing: the
  // source text error reporters and analytics send of a handler or a callback. Suspicious only.
  if (isUninvokedDefinition(text.slice(at))) return hit('node.function_literal', text, at, 1);
  return hit('node.function_literal', text, at, /[{};)]\s*$/.test(text) ? 2 : 1);
}

/**
 * `function …(…) { … }` and nothing after its closing brace: defined, not invoked. The brace count
 * ignores braces inside string literals only roughly (quotes are skipped); a value cut inside the
 * body (`function() {`, the probe) or followed by `()` / `.call(` is not this.
 */
export function isUninvokedDefinition(code: string): boolean {
  const open = code.indexOf('{');
  if (open < 0) return false;
  let depth = 0;
  let quote = '';
  for (let i = open; i < code.length && i < 65536; i++) {
    const c = code[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i > open + 1 && /^[\s;]*$/.test(code.slice(i + 1));
  }
  return false;
}

/**
 * React Server Components' Flight references, `"$1:constructor:constructor"`: the decoder walks the
 * colon path on the referenced object, so a path through constructor or __proto__ reaches Function.
 */
function findFlightReference(text: string): number {
  for (let at = text.indexOf(':constructor'), guard = 0; at >= 0 && guard < 16; at = text.indexOf(':constructor', at + 1), guard++) {
    if (/\$[0-9a-fA-F]{1,8}(?::[\w$]+)*$/.test(text.slice(Math.max(0, at - 60), at))) return at;
  }
  for (const key of [':__proto__', ':prototype']) {
    const at = text.indexOf(key);
    if (at >= 0 && /\$[0-9a-fA-F]{1,8}(?::[\w$]+)*$/.test(text.slice(Math.max(0, at - 60), at))) return at;
  }
  return -1;
}
