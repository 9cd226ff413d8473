/* Reading and writing a settings draft by the dotted path the server also names fields by (`cc.per_minute`). */

export function getPath(value: unknown, path: string): unknown {
  let at: unknown = value;
  for (const key of path.split('.')) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** A copy of `value` with `path` set; objects along the path are copied, the rest is shared. */
export function setPath<T>(value: T, path: string, next: unknown): T {
  const [head, ...rest] = path.split('.');
  if (head === undefined) return value;
  const current = (value ?? {}) as Record<string, unknown>;
  const child = rest.length === 0 ? next : setPath(current[head], rest.join('.'), next);
  if (Array.isArray(current)) {
    const copy = [...current] as unknown[];
    copy[Number(head)] = child;
    return copy as T;
  }
  return { ...current, [head]: child } as T;
}

/** The entries of a one-per-line box: trimmed, empty lines dropped. */
export function linesOf(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}
