/**
 * One walk over the tree collects what the taint pass needs: every assignment (which variable, in
 * which scope, from which expression), every function's parameters, every call site and the sinks'
 * candidate nodes. The walk is iterative: a deeply nested file must not overflow the stack here.
 *
 * Scopes: a named function or method is a scope of its own (its variables are not the caller's);
 * closures and arrow functions share their parent's scope, a small over-approximation that keeps
 * `use ($x)` and captured variables simple.
 */
import { type PhpNode, childrenOf, deadlineCheck, identifierText, isNode, plainName, variableName } from './ast.ts';
import { propertyKey } from './constant.ts';

export interface Assignment {
  scope: string;
  name: string;
  value: PhpNode;
  /** '=', '.=', ... or 'foreach' */
  operator: string;
  /** `$a['k'] = ...`: the constant key written; the rest of the array keeps its own taint. */
  element?: string;
}
export interface CallSite { scope: string; node: PhpNode }
export interface FunctionDecl { scope: string; params: string[] }

export interface Facts {
  assignments: Assignment[];
  /** Declared functions and methods by lowercase name (methods of any class share a name). */
  functions: Map<string, FunctionDecl[]>;
  /** `return` expressions per scope, so a user function's result carries its taint. */
  returns: Map<string, PhpNode[]>;
  /** Calls, evals, includes, backticks and `$$x` nodes, with their scope. */
  sites: CallSite[];
  /** `global $x` inside a function: that scope's $x is the global one. */
  globals: { scope: string; name: string }[];
  /**
   * Writes to variables the code names at run time: `$$k = v`, `extract(v)`, `parse_str(v)`.
   * When v is request input, every variable of that scope may be (register_globals emulation).
   */
  dynamicWrites: { scope: string; value: PhpNode }[];
  /** Every string literal (for the literal signals), with its scope. */
  strings: PhpNode[];
  nodeCount: number;
}

export const globalScope = '';
const siteKinds = new Set(['call', 'eval', 'include', 'encapsed', 'variable', 'new']);

/**
 * Variables a target expression writes: `$a`, `$a[..]` (the base), list()/[] destructuring, and
 * the file-wide pseudo-variables: `$x->p` is '->p' and `C::$p` is '::p' (one value per property
 * name, whatever the object: flow through `$this->cmd` is followed without types), and
 * `$GLOBALS['v']` is the global $v.
 */
function assignedNames(target: PhpNode, out: string[]): void {
  const stack = [target];
  while (stack.length > 0) {
    const node = stack.pop() as PhpNode;
    const name = variableName(node);
    if (name !== undefined) { out.push(name); continue; }
    const property = propertyKey(node);
    if (property !== undefined) { out.push(property); continue; }
    const global = globalsKey(node);
    if (global !== undefined) { out.push(globalMark + global); continue; }
    if ((node.kind === 'offsetlookup' || node.kind === 'propertylookup') && isNode(node.what)) stack.push(node.what);
    else if (node.kind === 'list' || node.kind === 'array') {
      for (const item of childrenOf(node)) stack.push(item.kind === 'entry' && isNode(item.value) ? item.value : item);
    }
  }
}

/** Marks a name that lives in the global scope whatever scope writes it (`$GLOBALS['v']`). */
export const globalMark = '\u0001';

/** `$GLOBALS['v']` → 'v' (not the superglobals it also holds: those are input). */
export function globalsKey(node: PhpNode): string | undefined {
  if (node.kind !== 'offsetlookup' || variableName(node.what) !== 'GLOBALS' || !isNode(node.offset) || node.offset.kind !== 'string') return undefined;
  return String(node.offset.value);
}

/** Element writes, one level: `$a['k'] = ` → 'k', `$a[k] = ` → 'k', `$a[] = ` → '#push'. */
function constantElement(target: PhpNode): string | undefined {
  if (target.kind !== 'offsetlookup' || variableName(target.what) === undefined || globalsKey(target) !== undefined) return undefined;
  const offset = target.offset;
  if (!isNode(offset)) return pushElement;
  if (offset.kind === 'name' && typeof offset.name === 'string') return offset.name;
  return offset.kind === 'string' || offset.kind === 'number' ? String(offset.value) : undefined;
}
export const pushElement = '#push';

export function collectFacts(program: PhpNode, deadline: number): Facts {
  const facts: Facts = { assignments: [], functions: new Map(), returns: new Map(), sites: [], globals: [], dynamicWrites: [], strings: [], nodeCount: 0 };
  const tick = deadlineCheck(deadline);
  const stack: { node: PhpNode; scope: string }[] = [{ node: program, scope: globalScope }];
  while (stack.length > 0) {
    const { node, scope: outer } = stack.pop() as { node: PhpNode; scope: string };
    tick();
    facts.nodeCount += 1;
    let scope = outer;
    const kind = node.kind;
    if (kind === 'function' || kind === 'method') {
      const fnName = plainName(node.name) ?? (typeof node.name === 'string' ? node.name.toLowerCase() : '?');
      scope = `${kind}:${fnName}:${node.loc?.start.offset ?? 0}`;
      const params = Array.isArray(node.arguments)
        ? node.arguments.filter(isNode).map((param) => identifierText(param.name))
        : [];
      const list = facts.functions.get(fnName) ?? [];
      list.push({ scope, params });
      facts.functions.set(fnName, list);
    } else if (kind === 'call' && (plainName(node.what) === 'extract' || (plainName(node.what) === 'parse_str' && Array.isArray(node.arguments) && node.arguments.length === 1))) {
      const first = Array.isArray(node.arguments) ? node.arguments[0] : undefined;
      if (isNode(first)) facts.dynamicWrites.push({ scope, value: first });
    }
    if (kind === 'assign' && isNode(node.left) && isNode(node.right) && node.left.kind === 'variable' && isNode(node.left.name)) {
      facts.dynamicWrites.push({ scope, value: node.right });
    } else if (kind === 'assign' && isNode(node.left) && isNode(node.right)) {
      const names: string[] = [];
      assignedNames(node.left, names);
      const operator = typeof node.operator === 'string' ? node.operator : '=';
      const element = constantElement(node.left);
      for (const name of names) {
        const global = name.startsWith(globalMark) || name.startsWith('->') || name.startsWith('::');
        facts.assignments.push({ scope: global ? globalScope : scope, name: name.replace(globalMark, ''), value: node.right, operator, ...(element !== undefined ? { element } : {}) });
      }
    } else if (kind === 'foreach' && isNode(node.source)) {
      const names: string[] = [];
      if (isNode(node.key)) assignedNames(node.key, names);
      if (isNode(node.value)) assignedNames(node.value, names);
      for (const name of names) facts.assignments.push({ scope, name, value: node.source, operator: 'foreach' });
    } else if (kind === 'return' && isNode(node.expr)) {
      const list = facts.returns.get(scope) ?? [];
      list.push(node.expr);
      facts.returns.set(scope, list);
    } else if (kind === 'global' && Array.isArray(node.items)) {
      for (const item of node.items) { const name = variableName(item); if (name) facts.globals.push({ scope, name }); }
    } else if (kind === 'string' || kind === 'nowdoc') {
      facts.strings.push(node);
    }
    if (siteKinds.has(kind)) {
      // Only the interesting variables: `$$x` (a variable whose name is an expression).
      if (kind !== 'variable' || isNode(node.name)) facts.sites.push({ scope, node });
    }
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i -= 1) stack.push({ node: children[i] as PhpNode, scope });
  }
  return facts;
}
