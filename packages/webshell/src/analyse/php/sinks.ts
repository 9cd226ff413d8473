/**
 * Sinks: where a value stops being data. Each call site, eval, include, backtick and `$$x` is judged
 * by what reaches it: request input or decoded data is strong evidence; a non-constant value is weak;
 * a constant is almost nothing (frameworks eval constants and run fixed commands).
 */
import { type PhpNode, argumentsOf, isNode, lengthOf, plainName, startOf } from './ast.ts';
import { type Evaluated, evaluateString } from './constant.ts';
import type { Facts } from './facts.ts';
import { DECODED, INPUT, type Taint } from './taint.ts';
import { type Signal, medium, strong, weak } from '../../signals.ts';
import type { WebshellReason } from '@rampart/contracts';

const commandSinks = new Set(['system', 'exec', 'shell_exec', 'passthru', 'popen', 'proc_open', 'pcntl_exec', 'expect_popen']);
const codeSinks = new Set(['assert', 'create_function']);
/** Callback-taking functions → the index of the callback argument. */
const callbackArg: Record<string, number> = {
  call_user_func: 0, call_user_func_array: 0, array_map: 0, array_filter: 1, array_walk: 1, array_walk_recursive: 1,
  usort: 1, uasort: 1, uksort: 1, array_reduce: 1, register_shutdown_function: 0, register_tick_function: 0,
  forward_static_call: 0, forward_static_call_array: 0, iterator_apply: 1, ob_start: 0, set_error_handler: 0,
  set_exception_handler: 0, preg_replace_callback: 1, mb_ereg_replace_callback: 1, spl_autoload_register: 0,
  header_register_callback: 0,
  // the callback is the last argument (-1) of the u* array comparisons
  array_intersect_ukey: -1, array_diff_ukey: -1, array_udiff: -1, array_udiff_assoc: -1, array_udiff_uassoc: -1, array_uintersect: -1,
  array_uintersect_assoc: -1, array_uintersect_uassoc: -1, array_diff_uassoc: -1, array_intersect_uassoc: -1,
};
/** Reflection that calls what it is given: `(new ReflectionFunction($name))->invoke(...)`. */
const reflectionCallers = new Set(['reflectionfunction', 'reflectionmethod']);
/** Names a callback or a hidden name should never be in ordinary code. */
const dangerousNames = new Set([...commandSinks, ...codeSinks, 'eval', 'preg_replace', 'include', 'require', 'file_put_contents', 'fwrite', 'move_uploaded_file', 'call_user_func', 'call_user_func_array']);
const hiddenWorthy = new Set([...dangerousNames, 'base64_decode', 'gzinflate', 'gzuncompress', 'gzdecode', 'str_rot13', 'strrev', 'hex2bin', 'array_map', 'usort', 'uasort', 'array_filter', 'array_walk', 'register_shutdown_function', 'ini_set', 'set_time_limit', 'error_reporting', 'fsockopen', 'curl_exec', 'file_get_contents']);
const extensionChecks = /\b(?:pathinfo|getimagesize|exif_imagetype|finfo_file|mime_content_type|wp_check_filetype\w*|strrchr|preg_match|in_array|getClientOriginalExtension|extension)\b/i;

export interface SinkInput {
  facts: Facts;
  taint: Taint;
  text: string;
  /** Analyses code an eval runs when that code is a constant the file builds (bounded depth; none when absent). */
  nested?: (code: string) => Signal[];
}

/** The preg pattern's modifiers when it is a constant with delimiters (`/x/e` → 'e'). */
function pregModifiers(pattern: string): string | undefined {
  const start = pattern.trimStart();
  const open = start[0];
  if (!open || /[a-z0-9\\\s]/i.test(open)) return undefined;
  const close = ({ '(': ')', '{': '}', '[': ']', '<': '>' } as Record<string, string>)[open] ?? open;
  const end = start.lastIndexOf(close);
  return end > 0 ? start.slice(end + 1) : undefined;
}

export function findSinks({ facts, taint, text, nested }: SinkInput): Signal[] {
  const signals: Signal[] = [];
  const at = (node: PhpNode, reason: WebshellReason, weight: number): void => {
    signals.push({ reason, weight, offset: startOf(node), length: lengthOf(node) });
  };
  const flagsOf = (node: PhpNode | undefined, scope: string): number => (node ? taint.of(node, scope) : 0);
  const isConstant = (node: PhpNode | undefined, scope: string): boolean => !!node && evaluateString(node, scope, taint) !== undefined;
  const hasUploadCheck = extensionChecks.test(text);

  /** A value reaching a code or command sink. */
  const judge = (site: PhpNode, value: PhpNode | undefined, scope: string, kind: 'code' | 'command'): void => {
    const flags = flagsOf(value, scope);
    if (flags & INPUT) at(site, kind === 'code' ? 'input_to_code_exec' : 'input_to_command', strong);
    else if (flags & DECODED) at(site, kind === 'code' ? 'decoded_to_code_exec' : 'input_to_command', strong);
    else if (kind === 'code' && value && nested) {
      // Constant code is what the file itself wrote: eval("ev"."al(\$_PO"."ST[x]);") is a shell
      // spelled in pieces. Its own analysis decides, at the eval's place.
      const code = evaluateString(value, scope, taint);
      if (!code) { at(site, 'code_exec_dynamic', weak); return; }
      const inner = code.built || code.decoded ? nested(code.value) : [];
      const worst = inner.reduce<Signal | undefined>((best, signal) => (!best || signal.weight > best.weight ? signal : best), undefined);
      if (worst && worst.weight >= medium) at(site, worst.reason, worst.weight);
      else at(site, 'code_exec_constant', 1);
    } else if (isConstant(value, scope)) at(site, kind === 'code' ? 'code_exec_constant' : 'command_constant', 1);
    else at(site, kind === 'code' ? 'code_exec_dynamic' : 'command_dynamic', weak);
  };

  for (const { scope, node } of facts.sites) {
    switch (node.kind) {
      case 'eval':
        judge(node, isNode(node.source) ? node.source : undefined, scope, 'code');
        break;
      case 'include': {
        const target = isNode(node.target) ? node.target : undefined;
        const flags = target ? taint.of(target, scope) : 0;
        // A constant directory in front (`include DIR . '/' . $page`) keeps the include inside that
        // directory: a local include, what plugin loaders do; input choosing the whole path is remote code.
        if (flags & INPUT) at(node, 'input_to_include', target && constantHead(target, scope) ? medium : strong);
        else if (flags & DECODED) at(node, 'decoded_to_code_exec', medium);
        break;
      }
      case 'encapsed':
        if (node.type === 'shell') judge(node, node, scope, 'command');
        break;
      case 'variable':
        if (isNode(node.name) && taint.of(node.name, scope) & INPUT) at(node, 'input_to_variable_variable', medium);
        break;
      case 'call':
        judgeCall(node, scope);
        break;
      case 'new': {
        if (!reflectionCallers.has(plainName(node.what) ?? '')) break;
        const target = argumentsOf(node)[0];
        if (!target) break;
        if (taint.of(target, scope) & INPUT) at(node, 'input_to_callback', strong);
        else if (dangerousNames.has(evaluateString(target, scope, taint)?.value.trim().toLowerCase() ?? '')) at(node, 'input_to_callback', medium);
        break;
      }
      default:
        break;
    }
  }

  /** `$x['k']` or `$x->p` on an ordinary variable: a value out of a data structure. */
  function fromStructure(node: PhpNode, scope: string, hops = 0): boolean {
    const variable = node.kind === 'variable' && typeof node.name === 'string' ? node.name : undefined;
    if (variable !== undefined) {
      const values = hops < 8 ? taint.valuesOf(scope, variable) : [];
      return values.length > 0 && values.every((value) => fromStructure(value, scope, hops + 1));
    }
    if (node.kind !== 'offsetlookup' && node.kind !== 'propertylookup') return false;
    let base = node;
    while ((base.kind === 'offsetlookup' || base.kind === 'propertylookup') && isNode(base.what)) base = base.what;
    const name = base.kind === 'variable' && typeof base.name === 'string' ? base.name : undefined;
    return name !== undefined && !/^_(?:GET|POST|REQUEST|COOKIE|SERVER|FILES)$/.test(name);
  }

  /** The leftmost piece of a concatenation, when constant (a string, a constant name, __DIR__). */
  function constantHead(node: PhpNode, scope: string, hops = 0): boolean {
    const name = node.kind === 'variable' && typeof node.name === 'string' ? node.name : undefined;
    if (name !== undefined) {
      const values = hops < 8 ? taint.valuesOf(scope, name) : [];
      return values.length > 0 && values.every((value) => constantHead(value, scope, hops + 1));
    }
    let head = node;
    while (head.kind === 'bin' && head.type === '.' && isNode(head.left)) head = head.left;
    if (head.kind === 'encapsed' && Array.isArray(head.value)) {
      const first = head.value[0];
      return isNode(first) && isNode(first.expression) && first.expression.kind === 'string' && String(first.expression.value).length > 0;
    }
    return head !== node && (head.kind === 'name' || head.kind === 'magic' || head.kind === 'constref' || head.kind === 'staticlookup' || isConstant(head, scope));
  }

  /** The rightmost piece of a concatenation as a constant string, if it is one. */
  function constantTail(node: PhpNode, scope: string): string | undefined {
    let tail = node;
    while (tail.kind === 'bin' && tail.type === '.' && isNode(tail.right)) tail = tail.right;
    return tail === node ? undefined : evaluateString(tail, scope, taint)?.value;
  }

  /**
   * `$f = 'system'` on one branch, `$f = 'passthru'` on another, then `$f($cmd)`: the page picks
   * whichever command function is enabled. No single value, but one of the candidates is a command
   * or code sink, and the argument is request input.
   */
  function judgeChosenSink(node: PhpNode, what: PhpNode, args: PhpNode[], scope: string): void {
    const variable = what.kind === 'variable' && typeof what.name === 'string' ? what.name : undefined;
    if (variable === undefined || !args.some((arg) => taint.of(arg, scope) & INPUT)) return;
    const candidates = taint.valuesOf(scope, variable).slice(0, 32)
      .map((value) => evaluateString(value, scope, taint)?.value.trim().replace(/^\\/, '').toLowerCase());
    const sink = candidates.find((name) => name !== undefined && (commandSinks.has(name) || codeSinks.has(name)));
    if (sink) at(node, commandSinks.has(sink) ? 'input_to_command' : 'input_to_code_exec', strong);
  }

  function judgeCall(node: PhpNode, scope: string): void {
    const what = isNode(node.what) ? node.what : undefined;
    if (!what) return;
    const args = argumentsOf(node);
    const direct = plainName(what);
    let name = direct;
    if (name === undefined && what.kind !== 'propertylookup' && what.kind !== 'staticlookup' && what.kind !== 'nullsafepropertylookup') {
      // A variable function or a call on an expression: what is the name, and where does it come from?
      const built: Evaluated | undefined = evaluateString(what, scope, taint);
      if (built) {
        name = built.value.trim().replace(/^\\/, '').toLowerCase();
        if (hiddenWorthy.has(name) && (built.built || built.decoded || what.kind === 'string')) {
          at(node, commandSinks.has(name) || codeSinks.has(name) || name === 'eval' || name in callbackArg ? 'hidden_sink_call' : 'built_function_name',
            commandSinks.has(name) || codeSinks.has(name) || built.decoded ? strong : medium);
        }
      } else {
        const flags = taint.of(what, scope);
        if (flags & INPUT) at(node, 'input_to_variable_function', strong);
        else if (flags & DECODED) at(node, 'decoded_to_call', strong);
        else judgeChosenSink(node, what, args, scope);
        return;
      }
    }
    if (name === undefined) return;
    if (commandSinks.has(name)) { judge(node, args[0], scope, 'command'); return; }
    if (name === 'create_function') { judge(node, args[1] ?? args[0], scope, 'code'); return; }
    if (name === 'assert') {
      // assert() evaluates strings only (before PHP 8); an expression assertion is ordinary code.
      const arg = args[0];
      if (arg && ['variable', 'offsetlookup', 'call', 'encapsed', 'string'].includes(arg.kind) || (arg?.kind === 'bin' && arg.type === '.')) judge(node, arg, scope, 'code');
      return;
    }
    if (name === 'preg_replace' || name === 'preg_filter' || name === 'mb_ereg_replace' || name === 'mb_eregi_replace') {
      const pattern = args[0];
      const patternValue = pattern && evaluateString(pattern, scope, taint);
      const modifiers = name.startsWith('mb_') ? (args[3] && evaluateString(args[3], scope, taint)?.value) : patternValue && pregModifiers(patternValue.value);
      const reach = flagsOf(args[1], scope) | flagsOf(args[2], scope);
      // A pattern built with a constant tail has constant modifiers: '/' . $quoted . '/i' cannot turn /e on.
      const tail = pattern && !patternValue ? constantTail(pattern, scope) : undefined;
      const tailModifiers = tail !== undefined ? /[a-zA-Z]*$/.exec(tail)?.[0] ?? '' : undefined;
      if (pattern && !patternValue && tailModifiers === undefined && flagsOf(pattern, scope) & INPUT) at(node, 'input_to_preg_eval', medium);
      else if (modifiers?.includes('e') || tailModifiers?.includes('e')) at(node, 'input_to_preg_eval', reach & (INPUT | DECODED) ? strong : medium);
      return;
    }
    const declaredIndex = callbackArg[name];
    if (declaredIndex !== undefined) {
      const callbackIndex = declaredIndex < 0 ? args.length - 1 : declaredIndex;
      const callback = args[callbackIndex];
      if (!callback) return;
      const flags = taint.of(callback, scope);
      // A callback read from a data structure ($handler['callback']) is how hook systems work; the
      // taint reaching it went through whole arrays, so it is weaker evidence than a direct value.
      if (flags & INPUT) { at(node, 'input_to_callback', fromStructure(callback, scope) ? medium : strong); return; }
      if (flags & DECODED) { at(node, 'decoded_to_call', strong); return; }
      const named = evaluateString(callback, scope, taint)?.value.trim().toLowerCase();
      if (named && dangerousNames.has(named)) {
        const others = args.reduce((sum, arg, index) => (index === callbackIndex ? sum : sum | taint.of(arg, scope)), 0);
        at(node, 'input_to_callback', others & (INPUT | DECODED) ? strong : medium);
      }
      return;
    }
    if (name === 'extract' || (name === 'parse_str' && args.length === 1)) {
      if (flagsOf(args[0], scope) & INPUT) at(node, 'extract_input', medium);
      return;
    }
    if (name === 'file_put_contents' || name === 'fwrite' || name === 'fputs') {
      const data = flagsOf(args[1], scope);
      if (!(data & (INPUT | DECODED))) return;
      // file_put_contents names its file; fwrite's handle carries the taint of the path fopen() got.
      const target = args[0];
      const targetValue = name === 'file_put_contents' && target ? evaluateString(target, scope, taint)?.value : undefined;
      if (targetValue !== undefined) at(node, 'input_written_to_script', /\.(?:php\d?|phtml|inc|jsp|aspx?)$/i.test(targetValue) ? strong : weak);
      // Request content written to a path the request chose: an uploader, whatever the extension.
      else at(node, 'input_written_to_script', target && flagsOf(target, scope) & INPUT ? medium + 1 : weak);
      return;
    }
    if ((name === 'move_uploaded_file' || name === 'copy') && !hasUploadCheck) {
      const source = args[0] ? evaluateString(args[0], scope, taint) : undefined;
      if (name === 'copy' && !(args[0] && flagsOf(args[0], scope) & INPUT)) return;
      if (!source) at(node, 'unchecked_upload', medium + 1);
    }
  }
  return signals;
}
