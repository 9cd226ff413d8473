/**
 * Taint: which values come from the request (INPUT) or out of a decoder (DECODED). Flow-insensitive
 * and per scope: a variable is tainted when any assignment to it in its scope is, parameters take
 * the taint of every call site's argument, and a user function's result takes its returns'. Iterated
 * to a fixed point (bounded rounds), so taint travels through chains of variables and functions.
 */
import { type PhpNode, argumentsOf, childrenOf, deadlineCheck, identifierText, isNode, plainName, variableName } from './ast.ts';
import { decoderNames, type ConstantContext, type Evaluated, type ScopedNode, evaluateString, lookupKey, propertyKey } from './constant.ts';
import { type Facts, globalScope, globalsKey, pushElement } from './facts.ts';

export const INPUT = 1;
export const DECODED = 2;

const superglobals = new Set(['_GET', '_POST', '_REQUEST', '_COOKIE', '_FILES', 'HTTP_GET_VARS', 'HTTP_POST_VARS', 'HTTP_COOKIE_VARS', 'HTTP_POST_FILES', 'HTTP_RAW_POST_DATA', 'HTTP_ENV_VARS']);
/** $_SERVER keys the client controls. */
const clientServerKeys = /^(?:HTTP_|QUERY_STRING$|REQUEST_URI$|PATH_INFO$|PHP_AUTH|ARGV$|argv$)/;
const inputCalls = new Set(['getallheaders', 'apache_request_headers', 'filter_input', 'filter_input_array', 'import_request_variables', 'http_get_request_body']);
/** Calls whose result no longer carries the input's text (or is made safe for a shell). */
const sanitizers = new Set([
  'escapeshellarg', 'escapeshellcmd', 'intval', 'floatval', 'boolval', 'basename', 'md5', 'sha1', 'crc32', 'hash', 'hash_hmac',
  'count', 'sizeof', 'strlen', 'is_numeric', 'is_string', 'is_array', 'is_int', 'in_array', 'array_key_exists', 'preg_match',
  'strpos', 'stripos', 'strcmp', 'file_exists', 'is_file', 'is_dir', 'ctype_digit', 'ctype_alnum', 'ctype_alpha', 'abs', 'max', 'min',
  'password_verify', 'hash_equals', 'filesize', 'time', 'date', 'microtime', 'rand', 'mt_rand', 'uniqid', 'mb_strlen', 'round',
]);
const booleanOperators = new Set(['==', '===', '!=', '!==', '<>', '<', '>', '<=', '>=', '<=>', '&&', '||', 'and', 'or', 'xor', 'instanceof', '+', '-', '*', '/', '%', '**', '<<', '>>', '&', '|', '^']);
const maxRounds = 6;
const maxDepth = 200;
const key = (scope: string, name: string): string => `${scope}\u0000${name}`;

export class Taint implements ConstantContext {
  private readonly flags = new Map<string, number>();
  private readonly byVariable = new Map<string, { value: PhpNode; operator: string }[]>();
  private readonly byElement = new Map<string, PhpNode[]>();
  /** Function scope → its name and parameters; callee name → its call sites (for parameter values). */
  private readonly scopeFunction = new Map<string, { name: string; params: string[] }>();
  private readonly callsByName = new Map<string, { scope: string; node: PhpNode }[]>();
  /** Scopes where request input is written to variables named at run time: any variable there may be input. */
  private readonly openScopes = new Set<string>();
  private readonly globalNames = new Map<string, Set<string>>();
  private returnMemo = new Map<string, number>();
  private readonly returning = new Set<string>();
  private readonly tick: () => void;
  private readonly facts: Facts;

  /** Form fields of the page itself: a global of that name is request input (form-fields.ts). */
  private readonly formFields: ReadonlySet<string>;

  constructor(facts: Facts, deadline: number, formFields: ReadonlySet<string> = new Set()) {
    this.facts = facts;
    this.formFields = formFields;
    this.tick = deadlineCheck(deadline);
    for (const [name, decls] of facts.functions) for (const decl of decls) this.scopeFunction.set(decl.scope, { name, params: decl.params });
    for (const site of facts.sites) {
      if (site.node.kind !== 'call') continue;
      const callee = this.calleeName(site.node);
      if (callee === undefined) continue;
      const list = this.callsByName.get(callee) ?? [];
      list.push(site);
      this.callsByName.set(callee, list);
    }
    for (const { scope, name, value, operator, element } of facts.assignments) {
      if (element !== undefined) {
        const k = `${key(this.home(scope, name), name)}[${element}]`;
        const list = this.byElement.get(k) ?? [];
        list.push(value);
        this.byElement.set(k, list);
        continue;
      }
      const list = this.byVariable.get(key(scope, name)) ?? [];
      list.push({ value, operator });
      this.byVariable.set(key(scope, name), list);
    }
    for (const { scope, name } of facts.globals) {
      const set = this.globalNames.get(scope) ?? new Set();
      set.add(name);
      this.globalNames.set(scope, set);
    }
  }

  private readonly values = new Map<string, Evaluated | null>();

  memo(scope: string, name: string, compute: () => Evaluated | undefined): Evaluated | undefined {
    const k = key(this.home(scope, name), name);
    const known = this.values.get(k);
    if (known !== undefined) return known ?? undefined;
    this.values.set(k, null); // in progress: a cycle reads "unknown"
    const value = compute();
    this.values.set(k, value ?? null);
    return value;
  }

  /** Every expression assigned to a plain variable in a scope (element writes excluded). */
  valuesOf(scope: string, name: string): PhpNode[] {
    return (this.byVariable.get(key(this.home(scope, name), name)) ?? []).map((entry) => entry.value);
  }

  /**
   * ConstantContext: a variable assigned exactly once, with `=`, holds that expression; a parameter
   * never assigned in its function holds the argument of the function's one call site.
   */
  singleValue(scope: string, name: string): ScopedNode | undefined {
    const home = this.home(scope, name);
    const list = this.byVariable.get(key(home, name));
    if (list) {
      if (list.length === 1 && list[0]?.operator === '=') return { node: list[0].value, scope: home };
      // `$x = 'a'; $x .= 'b'; $x .= 'c';` in source order: the value is the concatenation (flow-insensitive,
      // so only when the one `=` comes first and every other write appends).
      if (list.length > 1 && list.length <= 64 && list[0]?.operator === '=' && list.slice(1).every((entry) => entry.operator === '.=')) {
        const joined = list.slice(1).reduce<PhpNode>((left, entry) => ({ kind: 'bin', type: '.', left, right: entry.value, loc: entry.value.loc ?? null }), list[0].value);
        return { node: joined, scope: home };
      }
      return undefined;
    }
    const fn = this.scopeFunction.get(home);
    const index = fn ? fn.params.indexOf(name) : -1;
    const calls = fn && index >= 0 ? this.callsByName.get(fn.name) ?? [] : [];
    const argument = calls.length === 1 && calls[0] ? argumentsOf(calls[0].node)[index] : undefined;
    return argument && calls[0] ? { node: argument, scope: calls[0].scope } : undefined;
  }

  /** ConstantContext: `$a['k'] = x` written once holds x at 'k'; the n-th `$a[] = x` is at 'n' when all writes are pushes. */
  elementValue(scope: string, name: string, element: string): ScopedNode | undefined {
    const home = key(this.home(scope, name), name);
    const keyed = this.byElement.get(`${home}[${element}]`);
    if (keyed) return keyed.length === 1 && keyed[0] ? { node: keyed[0], scope: this.home(scope, name) } : undefined;
    const pushed = this.byElement.get(`${home}[${pushElement}]`);
    const index = /^\d+$/.test(element) ? Number(element) : -1;
    const value = pushed && index >= 0 ? pushed[index] : undefined;
    return value ? { node: value, scope: this.home(scope, name) } : undefined;
  }

  /** The scope a variable really lives in: `global $x` makes a function's $x the global one; properties are file-wide. */
  private home(scope: string, name: string): string {
    if (name.startsWith('->') || name.startsWith('::')) return globalScope;
    return this.globalNames.get(scope)?.has(name) ? globalScope : scope;
  }

  /** The flags of a whole variable (any of its elements included). */
  private variableFlags(scope: string, name: string): number {
    const home = key(this.home(scope, name), name);
    return (this.flags.get(home) ?? 0) | (this.flags.get(`${home}[*]`) ?? 0);
  }

  run(): void {
    for (let round = 0; round < maxRounds; round += 1) {
      this.returnMemo = new Map();
      let changed = false;
      const raise = (k: string, add: number): void => {
        const before = this.flags.get(k) ?? 0;
        if ((before | add) !== before) { this.flags.set(k, before | add); changed = true; }
      };
      for (const { scope, name, value, element } of this.facts.assignments) {
        const add = this.of(value, scope);
        if (!add) continue;
        const home = key(this.home(scope, name), name);
        // An element write taints that element and the array as a whole value, not its other keys.
        if (element === undefined) raise(home, add);
        else { raise(`${home}[${element}]`, add); raise(`${home}[*]`, add); }
      }
      for (const { scope, value } of this.facts.dynamicWrites) {
        if (!this.openScopes.has(scope) && this.of(value, scope) & INPUT) { this.openScopes.add(scope); changed = true; }
      }
      for (const { scope, node } of this.facts.sites) {
        if (node.kind !== 'call') continue;
        const target = this.parameterTarget(node);
        const decls = this.facts.functions.get(target.name ?? '');
        if (!decls) continue;
        const args = argumentsOf(node);
        args.forEach((arg, index) => {
          const add = this.of(arg, scope);
          if (!add) return;
          for (const decl of decls) {
            // newInstanceArgs([a, b]): one array spread over every parameter.
            for (const param of target.spread ? decl.params : [decl.params[index]]) if (param) raise(key(decl.scope, param), add);
          }
        });
      }
      if (!changed) return;
    }
  }

  /**
   * Whose parameters a call fills: its callee's, except that `ReflectionClass::newInstance(...)`
   * runs a constructor and `$this(...)` runs `__invoke` (methods of every class share a name here,
   * as everywhere in this pass).
   */
  private parameterTarget(call: PhpNode): { name: string | undefined; spread: boolean } {
    const name = this.calleeName(call);
    if (name === 'newinstance') return { name: '__construct', spread: false };
    if (name === 'newinstanceargs') return { name: '__construct', spread: true };
    if (name === undefined && variableName(call.what) === 'this') return { name: '__invoke', spread: false };
    return { name, spread: false };
  }

  private calleeName(call: PhpNode): string | undefined {
    const what = call.what;
    if (!isNode(what)) return undefined;
    if (what.kind === 'propertylookup' || what.kind === 'staticlookup' || what.kind === 'nullsafepropertylookup') {
      return identifierText(what.offset).toLowerCase() || undefined;
    }
    return plainName(what);
  }

  /** The taint flags of an expression in a scope. */
  of(node: PhpNode, scope: string, depth = 0): number {
    if (depth > maxDepth) return 0;
    this.tick();
    switch (node.kind) {
      case 'variable': {
        const name = variableName(node);
        if (name === undefined) {
          if (!isNode(node.name)) return 0;
          // `$$n`, `${'_PO'.'ST'}`: the variable the name evaluates to, and the taint of the name itself.
          const named = this.candidateNames(node.name, scope).reduce((sum, built) =>
            sum | (superglobals.has(built) ? INPUT : built === '_SERVER' ? 0 : this.variableFlags(scope, built)), 0);
          return named | this.of(node.name, scope, depth + 1) | (this.openScopes.has(scope) ? INPUT : 0);
        }
        if (superglobals.has(name)) return INPUT;
        if (name === '_SERVER') return 0; // only client-controlled keys, judged in offsetlookup
        if (name !== 'this' && this.openScopes.has(this.home(scope, name))) return INPUT;
        if (this.formFields.has(name) && this.home(scope, name) === globalScope) return INPUT;
        const home = key(this.home(scope, name), name);
        return (this.flags.get(home) ?? 0) | (this.flags.get(`${home}[*]`) ?? 0);
      }
      case 'offsetlookup': {
        const base = isNode(node.what) ? node.what : undefined;
        if (base && variableName(base) === '_SERVER') {
          const keyNode = isNode(node.offset) ? node.offset : undefined;
          const keyValue = keyNode && (keyNode.kind === 'string' ? String(keyNode.value) : undefined);
          return keyValue === undefined || clientServerKeys.test(keyValue) ? INPUT : 0;
        }
        const global = globalsKey(node);
        if (global !== undefined) return superglobals.has(global) ? INPUT : this.variableFlags(globalScope, global);
        const baseName = variableName(base);
        const offset = isNode(node.offset) ? node.offset : undefined;
        if (base && baseName !== undefined && !superglobals.has(baseName) && offset && (offset.kind === 'string' || offset.kind === 'number' || offset.kind === 'name')) {
          // $a['k']: the whole-array taint and that element's, not the taint of the array's other keys
          // (a numeric index may be one of the pushes: `$a[] = x`).
          const element = lookupKey(offset, scope, this, 0) ?? '';
          const home = key(this.home(scope, baseName), baseName);
          return (this.flags.get(home) ?? 0) | (this.flags.get(`${home}[${element}]`) ?? 0)
            | (/^\d+$/.test(element) ? this.flags.get(`${home}[${pushElement}]`) ?? 0 : 0);
        }
        return (base ? this.of(base, scope, depth + 1) : 0) | (offset && this.isInputKeyedGlobals(node) ? INPUT : 0);
      }
      case 'propertylookup': case 'staticlookup': case 'nullsafepropertylookup': {
        // `$this->cmd`, `self::$cmd`: the file-wide taint of that property name (facts.ts).
        const property = propertyKey(node);
        return property === undefined ? 0 : this.variableFlags(globalScope, property);
      }
      case 'string': case 'number': case 'boolean': case 'nowdoc': case 'nullkeyword': case 'magic': case 'name':
      case 'closure': case 'arrowfunc': case 'isset': case 'empty': case 'new': case 'constref': case 'classconstant':
        return 0;
      case 'cast':
        return node.type === 'string' || node.type === 'array' ? (isNode(node.expr) ? this.of(node.expr, scope, depth + 1) : 0) : 0;
      case 'bin':
        if (booleanOperators.has(String(node.type))) return 0;
        return (isNode(node.left) ? this.of(node.left, scope, depth + 1) : 0) | (isNode(node.right) ? this.of(node.right, scope, depth + 1) : 0);
      case 'retif':
        return (isNode(node.trueExpr) ? this.of(node.trueExpr, scope, depth + 1) : 0) | (isNode(node.falseExpr) ? this.of(node.falseExpr, scope, depth + 1) : 0)
          | (!isNode(node.trueExpr) && isNode(node.test) ? this.of(node.test, scope, depth + 1) : 0);
      case 'call':
        return this.ofCall(node, scope, depth);
      default: {
        let out = 0;
        for (const child of childrenOf(node)) out |= this.of(child, scope, depth + 1);
        return out;
      }
    }
  }

  /**
   * The names a variable-variable may take: the constant its name evaluates to, or each string of
   * the literal arrays its name variable iterates (`foreach (array('_POST', '_GET') as $n) $$n`).
   */
  private candidateNames(nameNode: PhpNode, scope: string): string[] {
    const built = evaluateString(nameNode, scope, this)?.value;
    if (built !== undefined) return [built];
    const variable = variableName(nameNode);
    if (variable === undefined) return [];
    const out: string[] = [];
    for (const value of this.valuesOf(scope, variable)) {
      if (value.kind !== 'array' || !Array.isArray(value.items)) continue;
      for (const item of value.items) {
        const element = isNode(item) && item.kind === 'entry' && isNode(item.value) ? item.value : item;
        if (isNode(element) && element.kind === 'string' && typeof element.value === 'string') out.push(element.value);
      }
    }
    return out;
  }

  /** `$GLOBALS['_GET']` and friends. */
  private isInputKeyedGlobals(node: PhpNode): boolean {
    if (variableName(node.what) !== 'GLOBALS' || !isNode(node.offset) || node.offset.kind !== 'string') return false;
    return superglobals.has(String(node.offset.value));
  }

  private ofCall(node: PhpNode, scope: string, depth: number): number {
    const args = argumentsOf(node);
    const argFlags = (): number => args.reduce((sum, arg) => sum | this.of(arg, scope, depth + 1), 0);
    const name = this.calleeName(node);
    if (name === undefined) {
      // A variable function: its result is as tainted as its name and its arguments.
      return (isNode(node.what) ? this.of(node.what, scope, depth + 1) : 0) | argFlags();
    }
    if (inputCalls.has(name)) return INPUT;
    if (name === 'getenv') {
      const arg = args[0] && evaluateString(args[0], scope, this);
      return !arg || clientServerKeys.test(arg.value) ? INPUT : 0;
    }
    if (['file_get_contents', 'fopen', 'file', 'stream_get_contents', 'fgets', 'fread'].includes(name) && args[0]) {
      const arg = evaluateString(args[0], scope, this);
      if (arg && /^php:\/\/(?:input|stdin)/i.test(arg.value)) return INPUT;
    }
    if (sanitizers.has(name)) return 0;
    if (decoderNames.has(name)) return DECODED | argFlags();
    const decls = this.facts.functions.get(name);
    if (decls) return this.returnsOf(decls.map((decl) => decl.scope)) | (isNode(node.what) && node.what.kind === 'name' ? 0 : argFlags());
    return argFlags();
  }

  private returnsOf(scopes: string[]): number {
    let out = 0;
    for (const scope of scopes) {
      const memo = this.returnMemo.get(scope);
      if (memo !== undefined) { out |= memo; continue; }
      if (this.returning.has(scope)) continue; // recursion: the fixed point adds it next round
      this.returning.add(scope);
      let flags = 0;
      for (const expr of this.facts.returns.get(scope) ?? []) flags |= this.of(expr, scope);
      this.returning.delete(scope);
      this.returnMemo.set(scope, flags);
      out |= flags;
    }
    return out;
  }
}
