import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gatherFacts, recordedExecutor, type Executor, type Facts } from '../src/index.ts';
import { sysctlKeys } from '../src/checks/sysctl.ts';

/**
 * Small Debian-like roots written into temp dirs: every test builds the files it judges, so no
 * test reads or changes the host's /etc. `{ mode }` sets permissions; `{ link }` makes a symlink.
 */
export type FixtureEntry = string | { text?: string; mode?: number; dir?: true; link?: string; mtime?: number; uid?: number; gid?: number };

export const roots: string[] = [];

export function makeRoot(files: Record<string, FixtureEntry>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'rampart-audit-'));
  roots.push(root);
  for (const [p, entry] of Object.entries(files)) {
    const host = path.join(root, p);
    mkdirSync(path.dirname(host), { recursive: true });
    const e = typeof entry === 'string' ? { text: entry } : entry;
    if (e.link) symlinkSync(e.link, host);
    else if (e.dir) mkdirSync(host, { recursive: true });
    else writeFileSync(host, e.text ?? '');
    if (e.mode !== undefined && !e.link) chmodSync(host, e.mode);
    if (e.uid !== undefined) chownSync(host, e.uid, e.gid ?? e.uid);
    if (e.mtime !== undefined) utimesSync(host, e.mtime, e.mtime);
  }
  return root;
}

export function removeRoots(): void {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
}

/** Passwd, group and shadow of a small Debian system: root, a sudo user with a key, daemons. */
export const baseAccounts: Record<string, FixtureEntry> = {
  '/etc/passwd': { mode: 0o644, text: 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\nsync:x:4:65534:sync:/bin:/bin/sync\nadmin:x:1000:1000:Admin:/home/admin:/bin/bash\n' },
  '/etc/group': { mode: 0o644, text: 'root:x:0:\ndaemon:x:1:\nshadow:x:42:\nsudo:x:27:admin\nnogroup:x:65534:\nadmin:x:1000:\n' },
  '/etc/shadow': { mode: 0o640, text: 'root:$y$j9T$abc:19700:0:99999:7:::\ndaemon:*:19700:0:99999:7:::\nsync:*:19700:0:99999:7:::\nadmin:$y$j9T$def:19700:0:99999:7:::\n' },
  '/etc/gshadow': { mode: 0o640, text: 'root:*::\nsudo:*::admin\n' },
  '/home/admin': { dir: true, mode: 0o700, uid: 1000 },
  '/home/admin/.ssh/authorized_keys': 'ssh-ed25519 AAAAC3Nza admin@laptop\n',
};

export const noCommands: Executor = recordedExecutor({});

export function factsOf(root: string, exec: Executor = noCommands): Promise<Facts> {
  return gatherFacts({ root, exec, sysctlKeys, moduleFlags: undefined });
}
