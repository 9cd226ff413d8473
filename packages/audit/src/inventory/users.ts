import { statSync } from 'node:fs';
import type { AuditLevel, AuditUser, SshAccess, UserFinding, UserStatus } from '@rampart/contracts';
import type { Executor } from '../executor.ts';
import { RootFs } from '../root-fs.ts';
import { collectAccounts, hasLoginShell, sudoCapableAccounts, type GroupEntry, type PasswdEntry, type ShadowEntry } from '../facts/accounts.ts';
import { collectSshdConfig, effectiveSshd, type SshdConfig } from '../facts/sshd-config.ts';
import { readLastLogins, type LastLogins } from './last-login.ts';
import { hashKind, weakHash } from './password-hash.ts';
import { expectedSudoGroups, readSudoers, type SudoersGrant } from './sudoers.ts';

/**
 * The user audit: every account of the root's passwd with its status, groups, last login, remote
 * login permission and findings. Reads files under the root and asks the executor only for
 * `sshd -T`, `lastlog` / `last`. Pure apart from that reading; `now` is passed for the tests.
 */
export interface UserInventoryOptions {
  root: string;
  exec: Executor;
  now?: number;
}

const dayMs = 86_400_000;
/** An account whose creation signals are all younger than this is "created recently". */
export const recentDays = 7;

/** `*` and `?` of sshd's patterns (sshd_config(5) PATTERNS); `user@host` limits a pattern to hosts, which the audit leaves out. */
function sshdPatternMatches(pattern: string, value: string): boolean {
  const negated = pattern.startsWith('!');
  const body = (negated ? pattern.slice(1) : pattern).split('@')[0] ?? '';
  const re = new RegExp(`^${body.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
  return re.test(value) && !negated;
}

/** What sshd's rules say for one account, in sshd's own order: DenyUsers, AllowUsers, DenyGroups, AllowGroups (sshd_config(5)). */
export function sshAccess(sshd: SshdConfig, user: PasswdEntry, groups: string[], hasKey: boolean, passwordUsable: boolean): AuditUser['remote'] {
  if (!sshd.present) return { ssh: 'no_sshd', methods: [], rule: null };
  if (!hasLoginShell(user)) return { ssh: 'no_shell', methods: [], rule: null };
  const list = (key: string) => sshd.lists.get(key) ?? [];
  const denied = (rule: string): AuditUser['remote'] => ({ ssh: 'denied', methods: [], rule });
  const denyUser = list('denyusers').find((p) => sshdPatternMatches(p, user.name));
  if (denyUser) return denied(`DenyUsers ${denyUser}`);
  if (list('allowusers').length > 0 && !list('allowusers').some((p) => sshdPatternMatches(p, user.name))) return denied(`AllowUsers ${list('allowusers').join(' ')}`);
  const denyGroup = list('denygroups').find((p) => groups.some((g) => sshdPatternMatches(p, g)));
  if (denyGroup) return denied(`DenyGroups ${denyGroup}`);
  if (list('allowgroups').length > 0 && !list('allowgroups').some((p) => groups.some((g) => sshdPatternMatches(p, g)))) return denied(`AllowGroups ${list('allowgroups').join(' ')}`);
  const yes = (key: string) => effectiveSshd(sshd, key).value.toLowerCase() === 'yes';
  let keyOk = hasKey && effectiveSshd(sshd, 'pubkeyauthentication').value.toLowerCase() !== 'no';
  // Keyboard-interactive asks for the password only through PAM.
  let passwordOk = passwordUsable && (yes('passwordauthentication') || (yes('kbdinteractiveauthentication') && yes('usepam')));
  let rule: string | null = null;
  if (user.uid === 0) {
    const root = effectiveSshd(sshd, 'permitrootlogin').value.toLowerCase();
    if (root === 'no') return denied('PermitRootLogin no');
    if (root !== 'yes') {
      rule = `PermitRootLogin ${root}`;
      passwordOk = false;
      if (root === 'forced-commands-only') keyOk = false;
    }
  }
  const methods = [...(keyOk ? ['key' as const] : []), ...(passwordOk ? ['password' as const] : [])];
  const ssh: SshAccess = methods.length > 0 ? 'allowed' : 'no_credential';
  return { ssh, methods, rule };
}

function statusOf(user: PasswdEntry, shadow: ShadowEntry | undefined, today: number): UserStatus {
  if (!hasLoginShell(user)) return 'no_login';
  if (shadow?.expire !== null && shadow?.expire !== undefined && shadow.expire <= today) return 'expired';
  const kind = hashKind(shadow?.hash ?? '*');
  return kind === 'locked' || kind === 'none' ? 'password_locked' : 'normal';
}

/**
 * When the account appeared. shadow's last-change day is set when the account is made but moves with
 * every password change; the home directory's birth time (statx) is set once but exists only for
 * accounts with a home. Creation came before both, so the earlier of the two is the bound we can
 * trust: an account is "recent" only when every signal says so.
 */
function createdAt(fs: RootFs, user: PasswdEntry, shadow: ShadowEntry | undefined): { at: number | null; source: string } {
  const signals: { at: number; source: string }[] = [];
  if (shadow?.lastChange) signals.push({ at: shadow.lastChange * dayMs, source: 'shadow lastchg' });
  if (user.home && user.home !== '/') {
    const host = fs.resolve(user.home);
    const birth = host ? statSync(host, { throwIfNoEntry: false }) : undefined;
    if (birth?.isDirectory() && birth.uid === user.uid && birth.birthtimeMs > 0) signals.push({ at: Math.round(birth.birthtimeMs), source: `${user.home} birth` });
  }
  if (signals.length === 0) return { at: null, source: '' };
  return signals.reduce((a, b) => (b.at < a.at ? b : a));
}

/** Accounts named by a sudoers rule other than Debian's own, with the rule's place. */
function unexpectedSudoers(grants: SudoersGrant[], passwd: PasswdEntry[], group: GroupEntry[]): Map<string, SudoersGrant> {
  const found = new Map<string, SudoersGrant>();
  const add = (name: string, grant: SudoersGrant) => {
    if (name !== 'root' && !found.has(name)) found.set(name, grant);
  };
  for (const grant of grants) {
    const who = grant.who;
    if (who === 'root' || expectedSudoGroups.has(who)) continue;
    if (who === 'ALL') for (const p of passwd) add(p.name, grant);
    else if (who.startsWith('%')) {
      const g = who.startsWith('%#') ? group.find((e) => e.gid === Number(who.slice(2))) : group.find((e) => e.name === who.slice(1));
      if (g) for (const p of passwd) if (p.gid === g.gid || g.members.includes(p.name)) add(p.name, grant);
    } else if (who.startsWith('#')) {
      for (const p of passwd) if (p.uid === Number(who.slice(1))) add(p.name, grant);
    } else add(who, grant);
  }
  return found;
}

const levelOrder: Record<AuditLevel, number> = { danger: 0, warning: 1, hint: 2 };
export const byLevel = <T extends { level: AuditLevel }>(a: T, b: T) => levelOrder[a.level] - levelOrder[b.level];

export async function collectUsers(options: UserInventoryOptions): Promise<AuditUser[]> {
  const fs = new RootFs(options.root);
  const now = options.now ?? Date.now();
  const today = Math.floor(now / dayMs);
  const [sshd, logins] = await Promise.all([collectSshdConfig(fs, options.exec), readLastLogins(options.exec)]);
  const keyFiles = effectiveSshd(sshd, 'authorizedkeysfile').value.split(/\s+/);
  const accounts = collectAccounts(fs, keyFiles);
  const shadow = new Map(accounts.shadow.map((s) => [s.name, s]));
  const sudoByGroup = new Set(sudoCapableAccounts(accounts.passwd, accounts.group));
  const sudoers = unexpectedSudoers(readSudoers(fs), accounts.passwd, accounts.group);
  return accounts.passwd.map((user) => judgeUser({ fs, user, shadow: shadow.get(user.name), group: accounts.group, sshd, logins, now, today, sudoByGroup, sudoers, hasKey: accounts.authorizedKeys.has(user.name) }));
}

interface UserContext {
  fs: RootFs;
  user: PasswdEntry;
  shadow: ShadowEntry | undefined;
  group: GroupEntry[];
  sshd: SshdConfig;
  logins: LastLogins;
  now: number;
  today: number;
  sudoByGroup: Set<string>;
  sudoers: Map<string, SudoersGrant>;
  hasKey: boolean;
}

function judgeUser(c: UserContext): AuditUser {
  const { user, shadow } = c;
  const primary = c.group.find((g) => g.gid === user.gid)?.name ?? String(user.gid);
  const groups = c.group.filter((g) => g.members.includes(user.name) && g.name !== primary).map((g) => g.name);
  const field = shadow?.hash ?? (user.password === 'x' ? '*' : user.password);
  const kind = hashKind(field);
  const findings: UserFinding[] = [];
  if (user.uid === 0 && user.name !== 'root') findings.push({ kind: 'uid0_duplicate', level: 'danger', detail: `uid 0 (/etc/passwd:${user.line})` });
  if (kind === 'empty') findings.push({ kind: 'empty_password', level: 'danger', detail: shadow ? `/etc/shadow:${shadow.line}` : `/etc/passwd:${user.line}` });
  const weak = weakHash(field);
  if (weak) findings.push({ kind: 'weak_hash', ...weak });
  const created = createdAt(c.fs, user, shadow);
  if (created.at !== null && c.now - created.at < recentDays * dayMs)
    findings.push({ kind: 'recently_created', level: hasLoginShell(user) ? 'warning' : 'hint', detail: `${new Date(created.at).toISOString().slice(0, 10)} (${created.source})` });
  const grant = c.sudoers.get(user.name);
  if (grant) findings.push({ kind: 'unexpected_sudoer', level: 'warning', detail: `${grant.file}:${grant.line} ${grant.rule}` });
  const login = c.logins.byUser.get(user.name);
  const passwordUsable = kind !== 'locked' && kind !== 'none' && (kind !== 'empty' || effectiveSshd(c.sshd, 'permitemptypasswords').value.toLowerCase() === 'yes');
  return {
    name: user.name,
    uid: user.uid,
    gid: user.gid,
    group: primary,
    groups,
    status: statusOf(user, shadow, c.today),
    hash_kind: kind,
    description: user.gecos,
    home: user.home,
    shell: user.shell,
    last_login: { at: login?.at ?? null, from: login?.from ?? null, known: c.logins.known },
    created_at: created.at,
    sudo: c.sudoByGroup.has(user.name) || grant !== undefined,
    remote: sshAccess(c.sshd, user, [primary, ...groups], c.hasKey, passwordUsable),
    findings: findings.sort(byLevel),
  };
}
