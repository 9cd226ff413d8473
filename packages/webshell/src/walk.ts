/**
 * Walks a tree for the files to scan: regular files only, symlinks never followed (no loops, no
 * escape out of the protected directory), whitelisted paths and other extensions skipped. A root
 * that is a file is yielded itself. Yields
 * paths as it goes so the scan starts before the walk ends; stops when the signal aborts. Paths are
 * encoded strings (path-bytes.ts): a name that is not valid UTF-8 is walked and scanned like any other.
 */
import { lstat } from 'node:fs/promises';
import { extensionOf } from './classify.ts';
import { openDirEntries } from './dir-entries.ts';
import { bytesOfPath, canonicalPath } from './path-bytes.ts';
import type { PathMatcher } from './whitelist.ts';

export interface WalkOptions {
  /** Extensions to scan, lowercase without the dot; an empty list scans every file. */
  extensions: readonly string[];
  skip: PathMatcher;
  signal?: AbortSignal;
}

export async function* walkTree(given: string, options: WalkOptions): AsyncGenerator<string> {
  const root = canonicalPath(given);
  const wanted = new Set(options.extensions.map((ext) => ext.toLowerCase()));
  // A root that is itself a regular file (an audit of chosen files) is scanned whatever its extension.
  const rootStat = await lstat(bytesOfPath(root)).catch(() => null);
  if (rootStat?.isFile()) {
    if (!options.skip(root)) yield root;
    return;
  }
  const pending = [root.replace(/\/+$/, '') || '/'];
  while (pending.length > 0) {
    if (options.signal?.aborted) return;
    const dir = pending.pop() as string;
    if (options.skip(dir)) continue;
    let handle;
    try {
      handle = await openDirEntries(dir);
    } catch {
      continue; // unreadable directory: nothing in it can be scanned, and the rest of the tree still is
    }
    const subdirs: string[] = [];
    for await (const entry of handle) {
      const path = entry.path;
      if (entry.isDirectory) subdirs.push(path);
      else if (entry.isFile && (wanted.size === 0 || wanted.has(extensionOf(path))) && !options.skip(path)) yield path;
    }
    // Depth first in name order: a stable order makes two scans of one tree comparable.
    pending.push(...subdirs.sort().reverse());
  }
}
