import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * Files under the audited root, read the way a process chrooted there would see them: symbolic
 * links are followed inside the root (an absolute target is re-rooted), never out to the host's
 * /etc. Production passes `/`; tests pass a temp dir or a debootstrapped Debian root.
 */
export interface FileStat {
  /** The path as seen inside the root. */
  path: string;
  /** Permission bits with setuid/setgid/sticky (st_mode & 0o7777). */
  mode: number;
  uid: number;
  gid: number;
  mtimeMs: number;
  isDirectory: boolean;
}
export interface TextFile extends FileStat {
  text: string;
}

const maxLinks = 40;

export class RootFs {
  readonly root: string;

  constructor(root: string) {
    this.root = realpathSync(root);
  }

  /** The host path of `p` with every symbolic link resolved inside the root; null when it does not exist. */
  resolve(p: string): string | null {
    let parts = path.posix.normalize(`/${p}`).split('/').filter(Boolean);
    let done: string[] = [];
    let links = 0;
    while (parts.length > 0) {
      const part = parts.shift() as string;
      if (part === '..') {
        done.pop();
        continue;
      }
      const host = path.join(this.root, ...done, part);
      let stat;
      try {
        stat = lstatSync(host);
      } catch {
        return null;
      }
      if (!stat.isSymbolicLink()) {
        done.push(part);
        continue;
      }
      if (++links > maxLinks) return null;
      const target = readlinkSync(host);
      const rest = target.split('/').filter(Boolean);
      if (target.startsWith('/')) done = [];
      parts = [...rest, ...parts];
    }
    return path.join(this.root, ...done);
  }

  stat(p: string): FileStat | null {
    const host = this.resolve(p);
    if (!host) return null;
    const s = lstatSync(host);
    return { path: p, mode: s.mode & 0o7777, uid: s.uid, gid: s.gid, mtimeMs: s.mtimeMs, isDirectory: s.isDirectory() };
  }

  read(p: string): TextFile | null {
    const stat = this.stat(p);
    if (!stat || stat.isDirectory) return null;
    return { ...stat, text: readFileSync(this.resolve(p) as string, 'utf8') };
  }

  /** Entry names of a directory, sorted as glob(3) and run-parts sort them (bytewise); [] when absent. */
  list(dir: string): string[] {
    const host = this.resolve(dir);
    if (!host) return [];
    try {
      return readdirSync(host).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    } catch {
      return [];
    }
  }

  exists(p: string): boolean {
    return this.resolve(p) !== null;
  }
}
