import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RootFs } from '../root-fs.ts';

/**
 * Every path a Debian package installed, from /var/lib/dpkg/info/*.list under the root: one file
 * read per package, once per scan (`dpkg -S` per executable would start a process each time).
 * null when the root has no lists (not a Debian root): ownership is then unknown, not "none".
 */
export function readPackagedPaths(fs: RootFs): Set<string> | null {
  const dir = fs.resolve('/var/lib/dpkg/info');
  if (!dir) return null;
  const lists = fs.list('/var/lib/dpkg/info').filter((name) => name.endsWith('.list'));
  if (lists.length === 0) return null;
  const paths = new Set<string>();
  for (const name of lists) {
    let text = '';
    try {
      text = readFileSync(path.join(dir, name), 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) if (line) paths.add(line);
  }
  return paths;
}

/**
 * Whether a package ships `file`. Debian 12 merged /bin, /sbin and /lib into /usr, but packages
 * still list many files at their old place (`/bin/bash`) while the kernel names the real one
 * (`/usr/bin/bash`): both spellings are tried.
 */
export function isPackaged(paths: Set<string>, file: string): boolean {
  if (paths.has(file)) return true;
  const merged = /^\/usr\/(bin|sbin|lib|lib32|lib64|libx32)\//.exec(file);
  if (merged) return paths.has(file.slice(4));
  const unmerged = /^\/(bin|sbin|lib|lib32|lib64|libx32)\//.exec(file);
  return unmerged ? paths.has(`/usr${file}`) : false;
}
