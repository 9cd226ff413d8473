import { readdir, readlink, stat } from 'node:fs/promises';
import path from 'node:path';
import type { GuardNamingRule, GuardTamperRule, ResolvedExe, ResolvedPath } from './plan.ts';
import { cleanPath, matchesPrefix, pathQuery, processMatches, splitSubPath, subAnchor } from './paths.ts';

/*
 * The executor side of the planner: the host's inodes and executables, read with real syscalls.
 *
 * Protected paths are stat'ed FOLLOWING symlinks: the administrator names the path they see, the
 * kernel walks the real parents of what is opened, and a symlink's own inode is never on that walk.
 * (So protecting `/var/www` when it links to `/srv/www` protects `/srv/www`.) Executables are
 * followed too: a process's exe is the file the link points at (`/usr/bin/python3` → `python3.11`).
 */

/** Where executables are looked for; tests point these at temp dirs. */
export interface ResolveRoots {
  /** Directories whose entries are candidates (not walked into). */
  binDirs: readonly string[];
  /** Trees walked for candidates, within maxDepth and maxEntries. */
  trees: readonly string[];
  /** The proc filesystem, for the executables of running processes; null: not read. */
  proc: string | null;
  /** Files whose change means packages were installed or upgraded. */
  packageFiles: readonly string[];
  maxDepth: number;
  maxEntries: number;
}

export const hostResolveRoots: ResolveRoots = {
  binDirs: ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'],
  trees: ['/usr/lib', '/opt'],
  proc: '/proc',
  packageFiles: ['/var/lib/dpkg/status', '/var/log/dpkg.log'],
  maxDepth: 6,
  maxEntries: 200_000,
};

/** A path whose change calls for a new resolve: by inode, or (`mtime`) also by modification time. */
export interface WatchedPath {
  path: string;
  mtime: boolean;
}

export interface GuardResolution {
  resolved: Record<string, ResolvedPath | null>;
  exes: Record<string, ResolvedExe[]>;
  /** What `guardFingerprint` reads to tell whether this resolution went stale. */
  watch: WatchedPath[];
}

async function inodeOf(file: string): Promise<ResolvedPath | null> {
  try {
    const info = await stat(file);
    return { dev: info.dev, ino: info.ino, dir: info.isDirectory() };
  } catch {
    return null;
  }
}

async function namesIn(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

/** Every path the rules need, with its inode (or null). */
export async function resolvePaths(tamper: readonly GuardTamperRule[], naming: readonly GuardNamingRule[], selfPaths: readonly string[]): Promise<{ resolved: Record<string, ResolvedPath | null>; watch: WatchedPath[] }> {
  const resolved: Record<string, ResolvedPath | null> = {};
  const watch: WatchedPath[] = [];
  const look = async (key: string) => {
    if (!(key in resolved)) {
      resolved[key] = await inodeOf(key);
      watch.push({ path: key, mtime: false });
    }
    return resolved[key];
  };
  for (const self of selfPaths) await look(cleanPath(self));
  for (const rule of naming.filter((r) => r.enabled)) await look(cleanPath(rule.dir));
  for (const rule of tamper.filter((r) => r.enabled)) {
    const query = pathQuery(rule.path);
    let anchors: string[];
    if (query.kind === 'exact') anchors = [query.path];
    else {
      // New entries matching the prefix change the directory's mtime.
      watch.push({ path: query.dir, mtime: true });
      anchors = (await namesIn(query.dir)).map((name) => cleanPath(`${query.dir}/${name}`)).filter((candidate) => matchesPrefix(candidate, query));
    }
    const sub = splitSubPath(rule.sub_path);
    for (const anchor of anchors) {
      const found = await look(anchor);
      if (found && 'dir' in sub && sub.dir !== null) await look(subAnchor(anchor, sub));
    }
  }
  return { resolved, watch };
}

/** One candidate executable file, found by walking or in /proc. */
interface Candidate {
  path: string;
  /** Where to stat it (the /proc link for a running process). */
  statPath: string;
}

async function* walk(root: string, depth: number, budget: { left: number }): AsyncGenerator<Candidate> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (budget.left-- <= 0) return;
    const full = path.posix.join(root, entry.name);
    // Symlinked directories are not walked into (loops, and the target is walked where it lives).
    if (entry.isDirectory()) {
      if (depth > 0) yield* walk(full, depth - 1, budget);
    } else if (entry.isFile() || entry.isSymbolicLink()) yield { path: full, statPath: full };
  }
}

async function* runningExecutables(proc: string): AsyncGenerator<Candidate> {
  for (const pid of await namesIn(proc)) {
    if (!/^\d+$/.test(pid)) continue;
    const link = `${proc}/${pid}/exe`;
    try {
      yield { path: (await readlink(link)).replace(/ \(deleted\)$/, ''), statPath: link };
    } catch {
      // kernel threads have no exe; a process may exit while we look
    }
  }
}

async function executableAt(candidate: Candidate): Promise<ResolvedExe | null> {
  try {
    const info = await stat(candidate.statPath);
    if (!info.isFile() || (info.mode & 0o111) === 0) return null;
    return { dev: info.dev, ino: info.ino, path: candidate.path };
  } catch {
    return null;
  }
}

/**
 * The executables each process pattern matches. `*` needs none (it is every process). Exact paths
 * are stat'ed; patterns with `*` are matched against every candidate's path: the bin directories,
 * the bounded trees and the executables of running processes.
 */
export async function resolveExecutables(patterns: readonly string[], roots: ResolveRoots): Promise<{ exes: Record<string, ResolvedExe[]>; watch: WatchedPath[] }> {
  const wanted = [...new Set(patterns)].filter((pattern) => pattern !== '*');
  const exes: Record<string, ResolvedExe[]> = Object.fromEntries(wanted.map((pattern) => [pattern, []]));
  const seen = new Map<string, Set<string>>(wanted.map((pattern) => [pattern, new Set<string>()]));
  const add = (pattern: string, exe: ResolvedExe) => {
    const key = `${exe.dev}:${exe.ino}:${exe.path}`;
    if (seen.get(pattern)!.has(key)) return;
    seen.get(pattern)!.add(key);
    exes[pattern]!.push(exe);
  };
  for (const pattern of wanted.filter((p) => !p.includes('*'))) {
    const exe = await executableAt({ path: pattern, statPath: pattern });
    if (exe) add(pattern, exe);
  }
  const consider = async (candidate: Candidate) => {
    const matching = wanted.filter((pattern) => processMatches(pattern, candidate.path));
    if (!matching.length) return;
    const exe = await executableAt(candidate);
    if (exe) for (const pattern of matching) add(pattern, exe);
  };
  if (wanted.some((pattern) => pattern.includes('*'))) {
    const budget = { left: roots.maxEntries };
    for (const dir of roots.binDirs) for await (const candidate of walk(dir, 0, budget)) await consider(candidate);
    for (const tree of roots.trees) for await (const candidate of walk(tree, roots.maxDepth, budget)) await consider(candidate);
  }
  if (wanted.length && roots.proc) for await (const candidate of runningExecutables(roots.proc)) await consider(candidate);
  for (const list of Object.values(exes)) list.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const watch = [...roots.packageFiles.map((file) => ({ path: file, mtime: true })), ...[...new Set(Object.values(exes).flat().map((exe) => exe.path))].map((file) => ({ path: file, mtime: true }))];
  return { exes, watch };
}

/** Everything the planner needs from the host, and what to watch to know when it changed. */
export async function resolveGuard(tamper: readonly GuardTamperRule[], naming: readonly GuardNamingRule[], selfPaths: readonly string[], roots: ResolveRoots): Promise<GuardResolution> {
  const paths = await resolvePaths(tamper, naming, selfPaths);
  const patterns = tamper.filter((rule) => rule.enabled).flatMap((rule) => [rule.process, ...rule.exempt]);
  const executables = await resolveExecutables(patterns, roots);
  return { resolved: paths.resolved, exes: executables.exes, watch: [...paths.watch, ...executables.watch] };
}

/**
 * A cheap summary of the watched paths (inode, and mtime where asked): when it differs from the one
 * taken after a resolve, a package upgrade replaced a binary, a protected path appeared or went, or
 * a `prefix*` directory gained an entry, and the rules are resolved again.
 */
export async function guardFingerprint(watch: readonly WatchedPath[]): Promise<string> {
  const parts = await Promise.all(
    watch.map(async ({ path: file, mtime }) => {
      try {
        const info = await stat(file);
        return `${file}:${info.dev}:${info.ino}${mtime ? `:${info.mtimeMs}` : ''}`;
      } catch {
        return `${file}:-`;
      }
    }),
  );
  return parts.join('\n');
}
