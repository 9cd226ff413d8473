import { chmodSync, chownSync, lstatSync, mkdirSync, readFileSync, rmdirSync, rmSync, utimesSync, writeFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { RootFs } from '../root-fs.ts';
import type { JournalChange } from './plan-schema.ts';

/**
 * Changes under the root, each first recorded as a journal change that undoes it. Paths are
 * resolved inside the root (symlinks in the directories are followed the chroot way); the file
 * itself must not be a symlink, so nothing is ever written outside the root.
 */
export class UnsafePathError extends Error {
  readonly path: string;
  constructor(p: string) {
    super(`unsafe path ${p}`);
    this.path = p;
  }
}

function lstatOrNull(host: string): Stats | null {
  try {
    return lstatSync(host);
  } catch {
    return null;
  }
}

/** The host path of `p`, creating missing parent directories (reported so they are journaled first). */
export function hostPathFor(fs: RootFs, p: string, onCreateDir: (dir: string) => void): string {
  const dir = path.posix.dirname(p);
  let hostDir = fs.resolve(dir);
  if (hostDir === null) {
    const parent = hostPathFor(fs, dir, onCreateDir);
    onCreateDir(dir);
    mkdirSync(parent, { mode: 0o755 });
    hostDir = parent;
  }
  if (!lstatOrNull(hostDir)?.isDirectory()) throw new UnsafePathError(p);
  const host = path.join(hostDir, path.posix.basename(p));
  if (lstatOrNull(host)?.isSymbolicLink()) throw new UnsafePathError(p);
  return host;
}

/** What undoes writing `host`: delete it if new, restore bytes, mode, owner and mtime otherwise. */
export function changeForWrite(p: string, host: string): JournalChange {
  const stat = lstatOrNull(host);
  if (!stat) return { kind: 'created_file', path: p };
  return { kind: 'replaced_file', path: p, original: { base64: readFileSync(host).toString('base64'), mode: stat.mode & 0o7777, uid: stat.uid, gid: stat.gid, mtimeMs: stat.mtimeMs } };
}

export function changeForAttributes(p: string, host: string): JournalChange {
  const stat = lstatSync(host);
  return { kind: 'attributes', path: p, original: { mode: stat.mode & 0o7777, uid: stat.uid, gid: stat.gid, mtimeMs: stat.mtimeMs } };
}

function restoreAttributes(host: string, original: { mode: number; uid: number; gid: number; mtimeMs: number }): void {
  chownSync(host, original.uid, original.gid);
  chmodSync(host, original.mode);
  const seconds = original.mtimeMs / 1000;
  utimesSync(host, seconds, seconds);
}

/** Undoes one change; a file or directory already gone is not an error. */
export function undoChange(fs: RootFs, change: JournalChange): void {
  const hostDir = fs.resolve(path.posix.dirname(change.path));
  if (hostDir === null) return;
  const host = path.join(hostDir, path.posix.basename(change.path));
  if (lstatOrNull(host)?.isSymbolicLink()) throw new UnsafePathError(change.path);
  switch (change.kind) {
    case 'created_file':
      rmSync(host, { force: true });
      return;
    case 'created_dir':
      try {
        rmdirSync(host);
      } catch {
        // Not empty: something else was put there since; leave it.
      }
      return;
    case 'replaced_file':
      writeFileSync(host, Buffer.from(change.original.base64, 'base64'));
      restoreAttributes(host, change.original);
      return;
    case 'attributes':
      if (lstatOrNull(host)) restoreAttributes(host, change.original);
      return;
  }
}
