import path from 'node:path';
import type { RootFs, FileStat } from '../root-fs.ts';

/** The account databases, parsed line by line with their line numbers for the evidence. */
export interface PasswdEntry {
  name: string;
  password: string;
  uid: number;
  gid: number;
  /** The GECOS field (full name, description). */
  gecos: string;
  home: string;
  shell: string;
  line: number;
}
export interface ShadowEntry {
  name: string;
  hash: string;
  /** Days since 1970-01-01 of the last password change, and of the account's expiry; null when empty. */
  lastChange: number | null;
  expire: number | null;
  line: number;
}
export interface GroupEntry {
  name: string;
  gid: number;
  members: string[];
  line: number;
}
export interface AccountFacts {
  passwd: PasswdEntry[];
  shadow: ShadowEntry[];
  group: GroupEntry[];
  /** Accounts that may run anything as root: uid 0, or members of sudo / admin / wheel. */
  sudoCapable: string[];
  /** Account name → the authorized-keys files under its home that hold at least one key. */
  authorizedKeys: Map<string, string[]>;
  /** Home directory of each account with a login shell whose home exists. */
  homes: Map<string, FileStat>;
}

const noLoginShells = new Set(['/usr/sbin/nologin', '/sbin/nologin', '/bin/false', '/usr/bin/false', '']);
/** Shells of the accounts Debian creates to run one command (sync, shutdown, halt). */
const commandShells = new Set(['/bin/sync', '/sbin/shutdown', '/sbin/halt', '/usr/sbin/shutdown', '/usr/sbin/halt']);

export function hasLoginShell(entry: PasswdEntry): boolean {
  return !noLoginShells.has(entry.shell) && !commandShells.has(entry.shell);
}

function lines(text: string | undefined): { fields: string[]; line: number }[] {
  return (text ?? '')
    .split('\n')
    .map((raw, index) => ({ raw, line: index + 1 }))
    .filter(({ raw }) => raw.trim() !== '' && !raw.startsWith('#') && !raw.startsWith('+') && !raw.startsWith('-'))
    .map(({ raw, line }) => ({ fields: raw.split(':'), line }));
}

export function parsePasswd(text: string | undefined): PasswdEntry[] {
  return lines(text).map(({ fields, line }) => ({
    name: fields[0] ?? '',
    password: fields[1] ?? '',
    uid: Number(fields[2]),
    gid: Number(fields[3]),
    gecos: fields[4] ?? '',
    home: fields[5] ?? '',
    shell: (fields[6] ?? '').trim(),
    line,
  }));
}

export function parseShadow(text: string | undefined): ShadowEntry[] {
  const day = (field: string | undefined) => (field && /^\d+$/.test(field) ? Number(field) : null);
  return lines(text).map(({ fields, line }) => ({ name: fields[0] ?? '', hash: fields[1] ?? '', lastChange: day(fields[2]), expire: day(fields[7]), line }));
}

export function parseGroup(text: string | undefined): GroupEntry[] {
  return lines(text).map(({ fields, line }) => ({
    name: fields[0] ?? '',
    gid: Number(fields[2]),
    members: (fields[3] ?? '').split(',').map((m) => m.trim()).filter(Boolean),
    line,
  }));
}

const sudoGroups = ['sudo', 'admin', 'wheel'];

export function sudoCapableAccounts(passwd: PasswdEntry[], group: GroupEntry[]): string[] {
  const groups = group.filter((g) => sudoGroups.includes(g.name));
  return passwd
    .filter((p) => p.uid === 0 || groups.some((g) => g.gid === p.gid || g.members.includes(p.name)))
    .map((p) => p.name);
}

/** A key file counts when it holds a line that is not blank and not a comment. */
function holdsKey(fs: RootFs, file: string): boolean {
  const text = fs.read(file)?.text ?? '';
  return text.split('\n').some((l) => l.trim() !== '' && !l.trim().startsWith('#'));
}

/** AuthorizedKeysFile patterns (sshd_config(5)): %h home, %u user, %% percent; relative means under home. */
export function authorizedKeyFiles(fs: RootFs, passwd: PasswdEntry[], patterns: string[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const entry of passwd) {
    const files = patterns
      .filter((p) => p.toLowerCase() !== 'none')
      .map((p) => p.replace(/%h/g, entry.home).replace(/%u/g, entry.name).replace(/%U/g, String(entry.uid)).replace(/%%/g, '%'))
      .map((p) => (p.startsWith('/') ? p : path.posix.join(entry.home, p)))
      .filter((file) => holdsKey(fs, file));
    if (files.length > 0) found.set(entry.name, files);
  }
  return found;
}

export function collectAccounts(fs: RootFs, authorizedKeysPatterns: string[]): AccountFacts {
  const passwd = parsePasswd(fs.read('/etc/passwd')?.text);
  const group = parseGroup(fs.read('/etc/group')?.text);
  const homes = new Map<string, FileStat>();
  for (const entry of passwd) {
    if (!hasLoginShell(entry) || entry.home === '' || entry.home === '/') continue;
    const stat = fs.stat(entry.home);
    if (stat?.isDirectory) homes.set(entry.name, stat);
  }
  return {
    passwd,
    shadow: parseShadow(fs.read('/etc/shadow')?.text),
    group,
    sudoCapable: sudoCapableAccounts(passwd, group),
    authorizedKeys: authorizedKeyFiles(fs, passwd, authorizedKeysPatterns),
    homes,
  };
}
