import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { PrivilegedAccount } from '@rampart/contracts';

/*
 * The host's account database read for the privileged-accounts view. Parsing is pure (lines in,
 * records out); reading takes the directory as an argument so tests use fixture files.
 */

export interface PasswdEntry {
  name: string;
  uid: number;
  gid: number;
  home: string;
  shell: string;
}

export interface GroupEntry {
  name: string;
  gid: number;
  members: string[];
}

/** Groups whose members may become root with sudo (Debian `sudo`, Red Hat `wheel`, old Ubuntu `admin`). */
export const sudoGroups = ['sudo', 'wheel', 'admin'] as const;

const fields = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.split(':'));

export function parsePasswd(text: string): PasswdEntry[] {
  return fields(text)
    .filter((f) => f.length >= 7 && /^\d+$/.test(f[2]!) && /^\d+$/.test(f[3]!))
    .map((f) => ({ name: f[0]!, uid: Number(f[2]), gid: Number(f[3]), home: f[5]!, shell: f[6]! }));
}

export function parseGroup(text: string): GroupEntry[] {
  return fields(text)
    .filter((f) => f.length >= 4 && /^\d+$/.test(f[2]!))
    .map((f) => ({ name: f[0]!, gid: Number(f[2]), members: f[3]!.split(',').map((m) => m.trim()).filter(Boolean) }));
}

/** name → whether its shadow hash can sign in (not empty, not locked with `!` or `*`). */
export function parseShadow(text: string): Map<string, boolean> {
  return new Map(fields(text).filter((f) => f.length >= 2).map((f) => [f[0]!, f[1]!.length > 1 && !f[1]!.startsWith('!') && !f[1]!.startsWith('*')]));
}

/** A shell that cannot run a session: the account cannot sign in over SSH at all. */
export function isNoLoginShell(shell: string): boolean {
  return /(^|\/)(nologin|false)$/.test(shell) || shell === '';
}

export interface AccountDatabase {
  passwd: PasswdEntry[];
  groups: GroupEntry[];
  /** null when the shadow file could not be read. */
  shadow: Map<string, boolean> | null;
}

async function readOr(file: string, fallback: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return fallback;
  }
}

export async function readAccountDatabase(etcDir: string): Promise<AccountDatabase> {
  const shadow = await readOr(path.join(etcDir, 'shadow'), '\0');
  return {
    passwd: parsePasswd(await readOr(path.join(etcDir, 'passwd'), '')),
    groups: parseGroup(await readOr(path.join(etcDir, 'group'), '')),
    shadow: shadow === '\0' ? null : parseShadow(shadow),
  };
}

async function hasKeys(home: string): Promise<boolean> {
  try {
    const info = await stat(path.join(home, '.ssh', 'authorized_keys'));
    return info.isFile() && info.size > 0;
  } catch {
    return false;
  }
}

/** Accounts with uid 0 or in a sudo group (by the member list or as their primary group), root first then by name. */
export async function privilegedAccounts(db: AccountDatabase): Promise<PrivilegedAccount[]> {
  const list: PrivilegedAccount[] = [];
  for (const user of db.passwd) {
    const reasons: PrivilegedAccount['reasons'] = [];
    if (user.uid === 0) reasons.push('uid0');
    for (const name of sudoGroups) {
      const group = db.groups.find((g) => g.name === name);
      if (group && (group.members.includes(user.name) || group.gid === user.gid)) reasons.push(name);
    }
    if (!reasons.length) continue;
    const login = !isNoLoginShell(user.shell);
    list.push({ name: user.name, uid: user.uid, shell: user.shell, reasons, password: login && (db.shadow?.get(user.name) ?? false), keys: login && (await hasKeys(user.home)) });
  }
  return list.sort((a, b) => (a.name === 'root' ? -1 : b.name === 'root' ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
