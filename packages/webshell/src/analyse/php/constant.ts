/**
 * Constant evaluation of string expressions: what a literal-built value really is. Shells hide
 * function names and payloads behind 'ba'.'se64_decode', chr(115).chr(121), strrev('metsys') or
 * base64_decode('c3lzdGVt'); evaluating those tiny programs statically shows the name they build.
 * Bounded: results over maxLength and decode bombs are given up on (undefined).
 */
import { createHash } from 'node:crypto';
import { inflateRawSync, inflateSync, gunzipSync } from 'node:zlib';
import { type PhpNode, argumentsOf, isNode, plainName, variableName } from './ast.ts';

const maxLength = 1 << 20;
const maxDepth = 64;

/** An expression and the scope its variables are read in (a parameter's value is its caller's argument). */
export interface ScopedNode { node: PhpNode; scope: string }

export interface ConstantContext {
  /**
   * The single expression a variable holds, if it has exactly one: its one `=` assignment, or for a
   * parameter never assigned, the argument of its function's one call site.
   */
  singleValue(scope: string, name: string): ScopedNode | undefined;
  /** The single expression an array element holds: `$a['k'] = x` (key 'k'), or the n-th `$a[] = x` (key 'n'). */
  elementValue(scope: string, name: string, key: string): ScopedNode | undefined;
  /**
   * A variable's value is evaluated once per scope: without this, `$b = $a . $a; $c = $b . $b; ...`
   * costs 2^n, and `$a = f($a)` loops (a variable being evaluated counts as unknown).
   */
  memo(scope: string, name: string, compute: () => Evaluated | undefined): Evaluated | undefined;
}

export interface Evaluated { value: string; /** True when any step was more than a plain literal (concatenation, chr, decoding). */ built: boolean; decoded: boolean }

const rot13 = (text: string): string =>
  text.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c <= 'Z' ? 65 : 97)));

function inflateBounded(data: Buffer, how: 'raw' | 'zlib' | 'gzip'): string | undefined {
  try {
    const options = { maxOutputLength: maxLength };
    const out = how === 'raw' ? inflateRawSync(data, options) : how === 'zlib' ? inflateSync(data, options) : gunzipSync(data, options);
    return out.toString('latin1');
  } catch {
    return undefined;
  }
}

/** A number-valued expression (for chr()): literals and + - * arithmetic on them. */
function numberOf(node: PhpNode, depth: number): number | undefined {
  if (depth > maxDepth) return undefined;
  if (node.kind === 'number' && typeof node.value === 'string') {
    const n = Number(node.value.replace(/_/g, ''));
    return Number.isFinite(n) ? n : undefined;
  }
  if (node.kind === 'bin' && isNode(node.left) && isNode(node.right)) {
    const a = numberOf(node.left, depth + 1);
    const b = numberOf(node.right, depth + 1);
    if (a === undefined || b === undefined) return undefined;
    switch (node.type) {
      case '+': return a + b;
      case '-': return a - b;
      case '*': return a * b;
      case '^': return a ^ b;
      default: return undefined;
    }
  }
  return undefined;
}

const decoders: Record<string, (input: string) => string | undefined> = {
  base64_decode: (s) => Buffer.from(s, 'base64').toString('latin1'),
  str_rot13: rot13,
  strrev: (s) => [...s].reverse().join(''),
  hex2bin: (s) => (/^(?:[0-9a-f]{2})*$/i.test(s) ? Buffer.from(s, 'hex').toString('latin1') : undefined),
  gzinflate: (s) => inflateBounded(Buffer.from(s, 'latin1'), 'raw'),
  gzuncompress: (s) => inflateBounded(Buffer.from(s, 'latin1'), 'zlib'),
  gzdecode: (s) => inflateBounded(Buffer.from(s, 'latin1'), 'gzip'),
  urldecode: (s) => { try { return decodeURIComponent(s.replace(/\+/g, ' ')); } catch { return undefined; } },
  rawurldecode: (s) => { try { return decodeURIComponent(s); } catch { return undefined; } },
  strtolower: (s) => s.toLowerCase(),
  strtoupper: (s) => s.toUpperCase(),
  trim: (s) => s.trim(),
  ucfirst: (s) => s.charAt(0).toUpperCase() + s.slice(1),
  lcfirst: (s) => s.charAt(0).toLowerCase() + s.slice(1),
  // pure hashes of constants: shells cut letters out of md5('a') to spell a name
  md5: (s) => createHash('md5').update(Buffer.from(s, 'latin1')).digest('hex'),
  sha1: (s) => createHash('sha1').update(Buffer.from(s, 'latin1')).digest('hex'),
  ucwords: (s) => s.replace(/(^|\s)(\S)/g, (_, a: string, b: string) => a + b.toUpperCase()),
  stripslashes: (s) => s.replace(/\\(.)/g, '$1'),
};

/** Names whose call is decoding rather than plain string handling (they make a value "decoded"). */
// urldecode is not among them: every router decodes its URL, and a %-escaped name hides nothing from a reader.
export const decoderNames = new Set(['base64_decode', 'str_rot13', 'strrev', 'hex2bin', 'gzinflate', 'gzuncompress', 'gzdecode', 'convert_uudecode', 'bzdecompress', 'lzf_decompress', 'pack']);
const obfuscatingDecoders = new Set(['base64_decode', 'str_rot13', 'strrev', 'hex2bin', 'gzinflate', 'gzuncompress', 'gzdecode', 'convert_uudecode', 'pack']);

/** PHP's bitwise operators on two strings work byte by byte: '!' ^ '@' is 'a'. */
function bitwise(op: string, a: string, b: string): string | undefined {
  const length = op === '|' ? Math.max(a.length, b.length) : Math.min(a.length, b.length);
  let out = '';
  for (let i = 0; i < length; i += 1) {
    const x = a.charCodeAt(i) & 0xff;
    const y = b.charCodeAt(i) & 0xff;
    out += String.fromCharCode(op === '^' ? x ^ y : op === '&' ? x & y : i >= a.length ? y : i >= b.length ? x : x | y);
  }
  return out;
}

const intArg = (node: PhpNode | undefined, depth: number): number | undefined => (node ? numberOf(node, depth + 1) ?? unaryMinus(node, depth) : undefined);
function unaryMinus(node: PhpNode, depth: number): number | undefined {
  if (node.kind !== 'unary' || node.type !== '-' || !isNode(node.what)) return undefined;
  const n = numberOf(node.what, depth + 1);
  return n === undefined ? undefined : -n;
}
/** PHP substr()'s start/length rules (negative counts from the end). */
function phpSubstr(text: string, start: number, length?: number): string {
  const from = start < 0 ? Math.max(0, text.length + start) : Math.min(start, text.length);
  const to = length === undefined ? text.length : length < 0 ? Math.max(from, text.length + length) : Math.min(text.length, from + length);
  return text.slice(from, to);
}

/** The lowercase bare word PHP 5/7 reads as a string when no such constant exists: `call(assert)`. */
const bareWord = /^[a-z_][a-z0-9_]*$/;
const notBare = new Set(['true', 'false', 'null']);

/** The key a lookup reads, when constant: `['k']`, `[0]`, or a bare word `[k]`. */
export function lookupKey(node: unknown, scope: string, context: ConstantContext, depth: number): string | undefined {
  if (!isNode(node)) return undefined;
  if (node.kind === 'name' && typeof node.name === 'string') return node.name;
  return evaluateString(node, scope, context, depth + 1)?.value;
}

/**
 * The expression an lvalue-like expression holds, followed through variables, parameters, array
 * literals and element writes: `$array[0]['f']` after `$item['f'] = 'x'; $array[] = $item;` is 'x'.
 */
export function resolveValue(node: PhpNode, scope: string, context: ConstantContext, depth = 0): ScopedNode | undefined {
  if (depth > 16) return undefined;
  if (node.kind === 'variable' && typeof node.name === 'string') {
    const held = context.singleValue(scope, node.name);
    if (!held) return undefined;
    return resolveValue(held.node, held.scope, context, depth + 1) ?? held;
  }
  if (node.kind === 'offsetlookup' && isNode(node.what)) {
    const key = lookupKey(node.offset, scope, context, depth);
    if (key === undefined) return undefined;
    const baseName = variableName(node.what);
    if (baseName !== undefined) {
      const element = context.elementValue(scope, baseName, key);
      if (element) return resolveValue(element.node, element.scope, context, depth + 1) ?? element;
    }
    const base = resolveValue(node.what, scope, context, depth + 1);
    if (!base) return undefined;
    if (base.node.kind === 'array' && Array.isArray(base.node.items)) {
      let position = 0;
      for (const item of base.node.items) {
        if (!isNode(item)) continue;
        const entryKey = item.kind === 'entry' && isNode(item.key) ? lookupKey(item.key, base.scope, context, depth) : String(position++);
        const value = item.kind === 'entry' ? item.value : item;
        if (entryKey === key && isNode(value)) return resolveValue(value, base.scope, context, depth + 1) ?? { node: value, scope: base.scope };
      }
      return undefined;
    }
    // The base is itself a variable (or element) holding an array built by element writes.
    if (base.node.kind === 'variable' && typeof base.node.name === 'string') {
      const element = context.elementValue(base.scope, base.node.name, key);
      if (element) return resolveValue(element.node, element.scope, context, depth + 1) ?? element;
    }
    return undefined;
  }
  return undefined;
}

export function evaluateString(node: PhpNode, scope: string, context: ConstantContext, depth = 0): Evaluated | undefined {
  if (depth > maxDepth) return undefined;
  switch (node.kind) {
    case 'name':
      // A bare lowercase word: PHP 5/7 read an undefined constant as its own name (`sqlsec(assert)`).
      return typeof node.name === 'string' && bareWord.test(node.name) && !notBare.has(node.name) && node.resolution === 'uqn'
        ? { value: node.name, built: true, decoded: false } : undefined;
    case 'unary': {
      if (node.type !== '~' || !isNode(node.what)) return undefined;
      const inner = evaluateString(node.what, scope, context, depth + 1);
      if (!inner || node.what.kind === 'number') return undefined;
      return { value: [...inner.value].map((c) => String.fromCharCode(~c.charCodeAt(0) & 0xff)).join(''), built: true, decoded: true };
    }
    case 'offsetlookup':
    case 'propertylookup':
    case 'staticlookup': {
      const held = node.kind === 'offsetlookup' ? resolveValue(node, scope, context, depth) : propertyValue(node, context);
      if ((!held || held.node === node) && node.kind === 'offsetlookup' && isNode(node.what)) {
        // A character of a constant string: $abc[4], $abc{4} (shells spell names out of an alphabet string).
        const index = isNode(node.offset) ? numberOf(node.offset, depth + 1) : undefined;
        const text = index === undefined ? undefined : evaluateString(node.what, scope, context, depth + 1);
        const at = text && index !== undefined ? (index < 0 ? text.value.length + index : index) : -1;
        return text && at >= 0 && at < text.value.length ? { value: text.value[at] as string, built: true, decoded: text.decoded } : undefined;
      }
      if (!held || held.node === node) return undefined;
      const inner = evaluateString(held.node, held.scope, context, depth + 1);
      return inner ? { ...inner, built: true } : undefined;
    }
    case 'string':
    case 'nowdoc':
      return typeof node.value === 'string' ? { value: node.value, built: false, decoded: false } : undefined;
    case 'number':
      return typeof node.value === 'string' ? { value: node.value, built: false, decoded: false } : undefined;
    case 'encapsed': {
      if (node.type === 'shell' || !Array.isArray(node.value)) return undefined;
      let value = '';
      for (const part of node.value) {
        const inner = isNode(part) && isNode(part.expression) ? evaluateString(part.expression, scope, context, depth + 1) : undefined;
        if (!inner) return undefined;
        value += inner.value;
      }
      return { value, built: true, decoded: false };
    }
    case 'bin': {
      if ((node.type === '^' || node.type === '|' || node.type === '&') && isNode(node.left) && isNode(node.right)
        && node.left.kind !== 'number' && node.right.kind !== 'number') {
        const a = evaluateString(node.left, scope, context, depth + 1);
        const b = a && evaluateString(node.right, scope, context, depth + 1);
        const value = a && b ? bitwise(String(node.type), a.value, b.value) : undefined;
        return value === undefined ? undefined : { value, built: true, decoded: true };
      }
      if (node.type !== '.' || !isNode(node.left) || !isNode(node.right)) return undefined;
      const a = evaluateString(node.left, scope, context, depth + 1);
      const b = a && evaluateString(node.right, scope, context, depth + 1);
      if (!a || !b || a.value.length + b.value.length > maxLength) return undefined;
      return { value: a.value + b.value, built: true, decoded: a.decoded || b.decoded };
    }
    case 'variable': {
      // `$$n` / `${'a'.'b'}`: the variable whose name the expression evaluates to.
      const name = variableName(node) ?? (isNode(node.name) ? evaluateString(node.name, scope, context, depth + 1)?.value : undefined);
      if (name === undefined) return undefined;
      return context.memo(scope, name, () => {
        const value = context.singleValue(scope, name);
        const inner = value && evaluateString(value.node, value.scope, context, depth + 1);
        return inner ? { ...inner, built: true } : undefined;
      });
    }
    case 'call': {
      // The callee may itself be built: $f = 'ba'.'se64_decode'; $f('...').
      const callee = isNode(node.what) && node.what.kind !== 'name' ? evaluateString(node.what, scope, context, depth + 1) : undefined;
      const name = callee ? callee.value.trim().toLowerCase() : plainName(node.what);
      const args = argumentsOf(node);
      if (name === 'chr' && args[0]) {
        const code = numberOf(args[0], depth + 1);
        return code === undefined ? undefined : { value: String.fromCharCode(((code % 256) + 256) % 256), built: true, decoded: false };
      }
      if (name === 'implode' || name === 'join') {
        const glue = args.length === 2 && args[0] ? evaluateString(args[0], scope, context, depth + 1) : { value: '', built: false, decoded: false };
        const list = args[args.length - 1];
        if (!glue || !list || list.kind !== 'array' || !Array.isArray(list.items)) return undefined;
        const parts: string[] = [];
        for (const item of list.items) {
          const element = isNode(item) && item.kind === 'entry' && isNode(item.value) ? item.value : item;
          const part = isNode(element) ? evaluateString(element, scope, context, depth + 1) : undefined;
          if (!part) return undefined;
          parts.push(part.value);
        }
        return { value: parts.join(glue.value), built: true, decoded: false };
      }
      if ((name === 'substr' || name === 'mb_substr') && args[0] && args.length <= 3) {
        const subject = evaluateString(args[0], scope, context, depth + 1);
        const start = intArg(args[1], depth);
        const length = args[2] ? intArg(args[2], depth) : undefined;
        if (!subject || start === undefined || (args[2] && length === undefined)) return undefined;
        return { value: phpSubstr(subject.value, start, length), built: true, decoded: subject.decoded };
      }
      if (name === 'substr_replace' && args.length >= 3 && args[0] && args[1]) {
        const subject = evaluateString(args[0], scope, context, depth + 1);
        const replacement = evaluateString(args[1], scope, context, depth + 1);
        const start = intArg(args[2], depth);
        const length = args[3] ? intArg(args[3], depth) : undefined;
        if (!subject || !replacement || start === undefined || (args[3] && length === undefined)) return undefined;
        const from = start < 0 ? Math.max(0, subject.value.length + start) : Math.min(start, subject.value.length);
        const to = length === undefined ? subject.value.length : length < 0 ? Math.max(from, subject.value.length + length) : Math.min(subject.value.length, from + length);
        return { value: subject.value.slice(0, from) + replacement.value + subject.value.slice(to), built: true, decoded: subject.decoded };
      }
      if (name === 'strtr' && args.length === 3) {
        const [subject, from, to] = args.map((arg) => evaluateString(arg, scope, context, depth + 1));
        if (!subject || !from || !to) return undefined;
        const map = new Map<string, string>();
        for (let i = 0; i < Math.min(from.value.length, to.value.length); i += 1) map.set(from.value[i] as string, to.value[i] as string);
        return { value: [...subject.value].map((c) => map.get(c) ?? c).join(''), built: true, decoded: subject.decoded };
      }
      if (name === 'sprintf' && args[0]) {
        const format = evaluateString(args[0], scope, context, depth + 1);
        if (!format || /%(?![s%])/.test(format.value.replace(/%%/g, ''))) return undefined;
        const values = args.slice(1).map((arg) => evaluateString(arg, scope, context, depth + 1));
        if (values.some((value) => !value)) return undefined;
        let next = 0;
        return { value: format.value.replace(/%([s%])/g, (_, c: string) => (c === '%' ? '%' : values[next++]?.value ?? '')), built: true, decoded: false };
      }
      if (name === 'str_replace' && args.length === 3) {
        const [search, replace, subject] = args.map((arg) => evaluateString(arg, scope, context, depth + 1));
        if (!search || !replace || !subject || search.value === '') return undefined;
        return { value: subject.value.split(search.value).join(replace.value), built: true, decoded: subject.decoded };
      }
      const decode = name === undefined ? undefined : decoders[name];
      if (decode && args[0]) {
        const input = evaluateString(args[0], scope, context, depth + 1);
        const value = input && decode(input.value);
        if (value === undefined || value.length > maxLength) return undefined;
        return { value, built: true, decoded: (input?.decoded ?? false) || obfuscatingDecoders.has(name as string) };
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** `$obj->name` / `Class::$name`: properties are one value per name across the file (see facts.ts). */
export function propertyKey(node: PhpNode): string | undefined {
  if ((node.kind === 'propertylookup' || node.kind === 'nullsafepropertylookup') && isNode(node.offset) && node.offset.kind === 'identifier' && typeof node.offset.name === 'string') return `->${node.offset.name}`;
  if (node.kind === 'staticlookup' && isNode(node.offset) && node.offset.kind === 'variable' && typeof node.offset.name === 'string') return `::${node.offset.name}`;
  return undefined;
}

function propertyValue(node: PhpNode, context: ConstantContext): ScopedNode | undefined {
  const name = propertyKey(node);
  return name === undefined ? undefined : context.singleValue('', name);
}
