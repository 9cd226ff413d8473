/**
 * The few things the analysis needs from php-parser's tree, typed loosely on purpose: the walker
 * reads any node kind and must not break on kinds a newer parser adds.
 */
export interface PhpNode {
  kind: string;
  loc?: { start: { offset: number }; end: { offset: number } } | null;
  [key: string]: unknown;
}

export const isNode = (value: unknown): value is PhpNode =>
  typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';

const skippedKeys = new Set(['kind', 'loc', 'leadingComments', 'trailingComments', 'attrGroups', 'raw']);
/** The keys worth reading per node kind (php-parser builds each kind with one constructor, so one shape). */
const keysByKind = new Map<string, string[]>();

function keysOf(node: PhpNode): string[] {
  const known = keysByKind.get(node.kind);
  if (known) return known;
  const keys = Object.keys(node).filter((key) => !skippedKeys.has(key));
  keysByKind.set(node.kind, keys);
  return keys;
}

/** A node's direct children, in source order as the parser stores them (loc and leading comments skipped). */
export function childrenOf(node: PhpNode): PhpNode[] {
  const out: PhpNode[] = [];
  for (const key of keysOf(node)) {
    const value = node[key];
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) out.push(item);
    } else if (isNode(value)) out.push(value);
  }
  return out;
}

export const startOf = (node: PhpNode): number => node.loc?.start.offset ?? 0;
export const lengthOf = (node: PhpNode): number => Math.max(0, (node.loc?.end.offset ?? 0) - startOf(node));

/** The lowercase name of a `name` node (leading backslash dropped), or undefined. */
export function plainName(node: unknown): string | undefined {
  if (!isNode(node)) return undefined;
  if (node.kind === 'name' && typeof node.name === 'string') return node.name.replace(/^\\/, '').toLowerCase();
  if (node.kind === 'identifier' && typeof node.name === 'string') return node.name.toLowerCase();
  return undefined;
}

/** The name of a `variable` node when it is a plain `$name` (not `$$x`). */
export function variableName(node: unknown): string | undefined {
  return isNode(node) && node.kind === 'variable' && typeof node.name === 'string' ? node.name : undefined;
}

export const argumentsOf = (call: PhpNode): PhpNode[] =>
  Array.isArray(call.arguments) ? call.arguments.filter(isNode) : [];

/** Thrown by the walkers when the file's time budget is spent. */
export class DeadlineExceeded extends Error {
  constructor() { super('time budget exceeded'); }
}

/** A clock the walkers poll every so many nodes: Date.now() on each node would cost more than the walk. */
export function deadlineCheck(deadline: number): () => void {
  let ticks = 0;
  return () => {
    ticks += 1;
    if ((ticks & 1023) === 0 && Date.now() > deadline) throw new DeadlineExceeded();
  };
}

/** The exact text of an identifier or a plain string name (case kept: PHP variables are case-sensitive). */
export function identifierText(value: unknown): string {
  if (typeof value === 'string') return value;
  return isNode(value) && typeof value.name === 'string' ? value.name : '';
}
