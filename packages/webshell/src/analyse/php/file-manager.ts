/**
 * A remote file manager: the request names any path on the server, and the page lists it, reads
 * it, or changes it. Each capability alone is what admin pages do (a theme editor reads the file a
 * form names), and they do it under a constant directory (`WP_PLUGIN_DIR . '/' . $file`); a page
 * that does two or more of them to whole paths the request chooses is a file manager for whoever
 * calls it.
 */
import { type PhpNode, argumentsOf, isNode, lengthOf, plainName, startOf } from './ast.ts';
import { evaluateString } from './constant.ts';
import type { Facts } from './facts.ts';
import { INPUT, type Taint } from './taint.ts';
import { type Signal, medium } from '../../signals.ts';

type Capability = 'list' | 'read' | 'change' | 'upload' | 'probe';

/** Calls → what they do to the path in the given argument (copy reads its first and writes its second). */
const pathCalls: Record<string, [Capability, number]> = {
  opendir: ['list', 0], scandir: ['list', 0], glob: ['list', 0], dir: ['list', 0],
  readfile: ['read', 0], file_get_contents: ['read', 0], file: ['read', 0], highlight_file: ['read', 0], show_source: ['read', 0],
  unlink: ['change', 0], rmdir: ['change', 0], rename: ['change', 0], chmod: ['change', 0], chown: ['change', 0], mkdir: ['change', 0],
  touch: ['change', 0], copy: ['change', 1], file_put_contents: ['change', 0],
  move_uploaded_file: ['upload', 1],
  // a writable-folder scanner walks the tree the request names and tests where it could drop a file
  is_writable: ['probe', 0], is_writeable: ['probe', 0],
};
const wrapperOnly = /^[a-z][a-z0-9.+-]*:\/\/$/i;
const listClasses = new Set(['directoryiterator', 'recursivedirectoryiterator', 'filesystemiterator', 'globiterator']);

export function fileManagerSignal(facts: Facts, taint: Taint): Signal[] {
  const found = new Map<Capability, PhpNode>();
  /** The whole path from the request: tainted, with no constant directory in front. */
  const chosen = (arg: PhpNode | undefined, scope: string): boolean =>
    !!arg && (taint.of(arg, scope) & INPUT) !== 0 && !constantHead(arg, scope, taint, 0);
  for (const { scope, node } of facts.sites) {
    if (node.kind !== 'call' && node.kind !== 'new') continue;
    const name = plainName(node.what);
    if (name === undefined) continue;
    const args = argumentsOf(node);
    let capability: Capability | undefined;
    if (node.kind === 'new') capability = listClasses.has(name) && chosen(args[0], scope) ? 'list' : undefined;
    else if (name === 'fopen') {
      const mode = args[1] ? evaluateString(args[1], scope, taint)?.value : undefined;
      capability = mode === undefined || !chosen(args[0], scope) ? undefined : /^r[bt]?$/.test(mode) ? 'read' : 'change';
    } else if (name === 'copy' && chosen(args[0], scope)) capability = 'read';
    else {
      const entry = pathCalls[name];
      capability = entry && chosen(args[entry[1]], scope) ? entry[0] : undefined;
    }
    if (capability && !found.has(capability)) found.set(capability, node);
  }
  // Testing whether a named file is writable is what an editor does before saving; it marks a scanner only with a directory walk.
  if (!found.has('list')) found.delete('probe');
  if (found.size < 2) return [];
  const first = [...found.values()].sort((a, b) => startOf(a) - startOf(b))[0] as PhpNode;
  return [{ reason: 'file_manager_from_request', weight: medium + 1, offset: startOf(first), length: lengthOf(first) }];
}

/** The leftmost piece of a concatenation is constant (a literal, a constant, __DIR__), directly or through variables. */
function constantHead(node: PhpNode, scope: string, taint: Taint, hops: number): boolean {
  if (node.kind === 'variable' && typeof node.name === 'string') {
    const values = hops < 8 ? taint.valuesOf(scope, node.name) : [];
    return values.length > 0 && values.every((value) => constantHead(value, scope, taint, hops + 1));
  }
  let head = node;
  while (head.kind === 'bin' && head.type === '.' && isNode(head.left)) head = head.left;
  if (head.kind === 'encapsed' && Array.isArray(head.value)) {
    const first = head.value[0];
    return isNode(first) && isNode(first.expression) && first.expression.kind === 'string' && String(first.expression.value).length > 0
      && !wrapperOnly.test(String(first.expression.value));
  }
  if (head === node) return false;
  // A stream wrapper in front (`'compress.zlib://' . $file`) names no folder: the rest is still the whole path.
  return ['name', 'magic', 'constref', 'staticlookup'].includes(head.kind) || (head.kind === 'string' && String(head.value).length > 0 && !wrapperOnly.test(String(head.value)));
}
