import path from 'node:path';
import type { GuardNameMatch } from '@rampart/contracts';

/*
 * How rule text turns into the paths the resolver must stat and the planner looks up. Both sides
 * call these, so the keys of the `resolved` map are the same strings on either side.
 */

/** A normalized absolute path: no trailing slash (except `/`), no `//`. */
export function cleanPath(value: string): string {
  const normal = path.posix.normalize(value);
  return normal.length > 1 ? normal.replace(/\/+$/, '') : normal;
}

/** Whether `child` is `parent` or below it (by path text). */
export function isAtOrBelow(child: string, parent: string): boolean {
  return child === parent || parent === '/' || child.startsWith(`${parent}/`);
}

/**
 * What a protected path asks for. `dir/*` (and `/*`) is the directory itself: the plan marks the
 * directory, because only a marked directory covers entries created in it later; so the directory
 * is covered too. `dir/name*` is every entry of `dir` whose name starts with `name`, as found when
 * the rules were resolved (a later one is picked up at the next resolve).
 */
export type PathQuery = { kind: 'exact'; path: string } | { kind: 'prefix'; dir: string; prefix: string };

export function pathQuery(protectedPath: string): PathQuery {
  if (!protectedPath.endsWith('*')) return { kind: 'exact', path: cleanPath(protectedPath) };
  const bare = protectedPath.slice(0, -1);
  if (bare.endsWith('/')) return { kind: 'exact', path: cleanPath(bare) };
  return { kind: 'prefix', dir: cleanPath(path.posix.dirname(bare)), prefix: path.posix.basename(bare) };
}

/** Whether a resolved path is one of a prefix query's entries. */
export function matchesPrefix(candidate: string, query: { dir: string; prefix: string }): boolean {
  return path.posix.dirname(candidate) === query.dir && path.posix.basename(candidate).startsWith(query.prefix) && candidate !== query.dir;
}

/**
 * A sub path split in two: the directory part (resolved to a deeper object below the protected
 * path) and the name part (matched against the entry acted on). `uploads/*.php` → dir `uploads`,
 * name `*.php`; `*.php` → no dir; `uploads/` → dir `uploads`, any name. A directory part that
 * starts with `*` cannot be resolved to an object: `unsupported`.
 */
export type SubPath = { dir: string | null; name: string } | { unsupported: true };

export function splitSubPath(subPath: string): SubPath {
  const trimmed = subPath.trim().replace(/^\/+/, '');
  if (trimmed === '' || trimmed === '*') return { dir: null, name: '*' };
  const slash = trimmed.lastIndexOf('/');
  if (slash === -1) return { dir: null, name: trimmed };
  const dir = trimmed.slice(0, slash).replace(/\/+$/, '');
  const name = trimmed.slice(slash + 1) || '*';
  if (dir.includes('*')) return { unsupported: true };
  return { dir: dir === '' ? null : dir, name };
}

/** The paths below which a rule with this sub path has effect, one per anchor of its protected path. */
export function subAnchor(anchor: string, sub: { dir: string | null }): string {
  return sub.dir === null ? anchor : cleanPath(`${anchor}/${sub.dir}`);
}

/**
 * A name pattern as the kernel tables match it: `x` exact, `x*` prefix, `*x` suffix, `*x*`
 * contains, `x*y` prefix_suffix, `*` any. Null when a part is longer than the tables hold (63 bytes).
 */
export function nameMatch(pattern: string): GuardNameMatch | null {
  const fits = (part: string) => Buffer.byteLength(part) <= 63;
  let match: GuardNameMatch;
  if (pattern === '*' || pattern === '') match = { kind: 'any', a: '', b: '' };
  else if (pattern.length > 2 && pattern.startsWith('*') && pattern.endsWith('*')) match = { kind: 'contains', a: pattern.slice(1, -1), b: '' };
  else if (pattern.startsWith('*')) match = { kind: 'suffix', a: pattern.slice(1), b: '' };
  else if (pattern.endsWith('*')) match = { kind: 'prefix', a: pattern.slice(0, -1), b: '' };
  else if (pattern.includes('*')) {
    const star = pattern.indexOf('*');
    match = { kind: 'prefix_suffix', a: pattern.slice(0, star), b: pattern.slice(star + 1) };
  } else match = { kind: 'exact', a: pattern, b: '' };
  return fits(match.a) && fits(match.b) ? match : null;
}

/** Whether an executable's path fits a process pattern (`*` alone, or `*` at either end or both). */
export function processMatches(pattern: string, exePath: string): boolean {
  if (pattern === '*') return true;
  const starts = pattern.startsWith('*');
  const ends = pattern.length > 1 && pattern.endsWith('*');
  const core = pattern.slice(starts ? 1 : 0, ends ? -1 : undefined);
  if (starts && ends) return exePath.includes(core);
  if (starts) return exePath.endsWith(core);
  if (ends) return exePath.startsWith(core);
  return exePath === core;
}
