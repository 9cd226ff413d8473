/**
 * Constant evaluation of string expressions: what a literal-built value really is. Shells hide
 * function names and payloads behind 'ba'.'se64_decode', chr(115).chr(121), strrev('metsys') or
 * base64_decode('c3lzdGVt'); evaluating those tiny programs statically shows the name they build.
 * Bounded: results over maxLength and decode bombs are given up on (undefined).
 */
import { inflateRawSync, inflateSync, gunzipSync } from 'node:zlib';
import { type PhpNode, argumentsOf, isNode, plainName, variableName } from './ast.ts';

const maxLength = 1 << 20;
const maxDepth = 64;

export interface ConstantContext {
  /** The single constant-valued expression a variable holds in a scope, if it has exactly one. */
  singleValue(scope: string, name: string): PhpNode | undefined;
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
};

/** Names whose call is decoding rather than plain string handling (they make a value "decoded"). */
// urldecode is not among them: every router decodes its URL, and a %-escaped name hides nothing from a reader.
export const decoderNames = new Set(['base64_decode', 'str_rot13', 'strrev', 'hex2bin', 'gzinflate', 'gzuncompress', 'gzdecode', 'convert_uudecode', 'bzdecompress', 'lzf_decompress', 'pack']);
const obfuscatingDecoders = new Set(['base64_decode', 'str_rot13', 'strrev', 'hex2bin', 'gzinflate', 'gzuncompress', 'gzdecode', 'convert_uudecode', 'pack']);

export function evaluateString(node: PhpNode, scope: string, context: ConstantContext, depth = 0): Evaluated | undefined {
  if (depth > maxDepth) return undefined;
  switch (node.kind) {
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
      if (node.type !== '.' || !isNode(node.left) || !isNode(node.right)) return undefined;
      const a = evaluateString(node.left, scope, context, depth + 1);
      const b = a && evaluateString(node.right, scope, context, depth + 1);
      if (!a || !b || a.value.length + b.value.length > maxLength) return undefined;
      return { value: a.value + b.value, built: true, decoded: a.decoded || b.decoded };
    }
    case 'variable': {
      const name = variableName(node);
      if (name === undefined) return undefined;
      return context.memo(scope, name, () => {
        const value = context.singleValue(scope, name);
        const inner = value && evaluateString(value, scope, context, depth + 1);
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
