import type { AuditEvidence } from '@rampart/contracts';
import { hasLoginShell, type PasswdEntry } from '../facts/accounts.ts';
import type { Facts } from '../facts/facts.ts';
import { noneOf, text, type AuditCheck } from './check.ts';

/** Local accounts and groups (CIS Debian 12 section 7.2). */
const at = (file: string, line: number, found: string, expected?: string): AuditEvidence => ({ file, line, found, expected });

/** Entries sharing a value, every one after the first reported. */
function duplicates<T>(entries: T[], key: (e: T) => string | number, evidence: (e: T, first: T) => AuditEvidence): AuditEvidence[] {
  const seen = new Map<string | number, T>();
  const found: AuditEvidence[] = [];
  for (const e of entries) {
    const first = seen.get(key(e));
    if (first) found.push(evidence(e, first));
    else seen.set(key(e), e);
  }
  return found;
}

const uidMin = (facts: Facts) => Number(facts.loginDefs?.get('UID_MIN')?.value ?? 1000);

const systemShell = (facts: Facts) => (p: PasswdEntry) => p.uid < uidMin(facts) && p.name !== 'root' && hasLoginShell(p);

export const accountChecks: AuditCheck[] = [
  {
    id: 'accounts.uid0_only_root',
    cisSection: '7.2',
    category: 'accounts',
    level: 'danger',
    title: text('存在 root 以外的 uid 0 账号', 'An account other than root has uid 0'),
    advice: text('删除该账号或改为普通 uid；uid 0 的第二个账号常是后门', 'Remove the account or give it an ordinary uid; a second uid 0 account is a classic backdoor'),
    uses: ['accounts'],
    run: (facts) => noneOf(facts.accounts.passwd.filter((p) => p.uid === 0 && p.name !== 'root').map((p) => at('/etc/passwd', p.line, p.name, 'only root')), 'only root has uid 0'),
  },
  {
    id: 'accounts.empty_password',
    cisSection: '7.2',
    category: 'accounts',
    level: 'danger',
    title: text('存在空密码账号', 'An account has an empty password'),
    advice: text('为该账号设置密码或用 passwd -l 锁定', 'Set a password for the account or lock it with passwd -l'),
    uses: ['accounts'],
    run: (facts) => noneOf(facts.accounts.shadow.filter((s) => s.hash === '').map((s) => at('/etc/shadow', s.line, `${s.name}: empty`, 'a hash, ! or *')), 'no empty password field'),
  },
  {
    id: 'accounts.shadowed_passwords',
    cisSection: '7.2',
    category: 'accounts',
    level: 'danger',
    title: text('密码哈希写在 /etc/passwd 中', 'Password hashes sit in /etc/passwd'),
    advice: text('运行 pwconv，把密码移到只有 root 可读的 /etc/shadow', 'Run pwconv to move the hashes into /etc/shadow, which only root reads'),
    uses: ['accounts'],
    run: (facts) => noneOf(facts.accounts.passwd.filter((p) => p.password !== 'x').map((p) => at('/etc/passwd', p.line, `${p.name}: ${p.password === '' ? 'empty' : 'not x'}`, 'x')), 'every account uses /etc/shadow'),
  },
  {
    id: 'accounts.duplicate_uid',
    cisSection: '7.2',
    category: 'accounts',
    level: 'warning',
    title: text('存在重复的 UID', 'UIDs are shared'),
    advice: text('为每个账号分配唯一 UID，否则文件归属与审计无法区分', 'Give every account its own UID; shared ones make ownership and audit trails ambiguous'),
    uses: ['accounts'],
    run: (facts) => noneOf(duplicates(facts.accounts.passwd, (p) => p.uid, (p, first) => at('/etc/passwd', p.line, `${p.name} uid ${p.uid}`, `unique (also ${first.name})`)), 'every uid is unique'),
  },
  {
    id: 'accounts.duplicate_gid',
    cisSection: '7.2',
    category: 'accounts',
    level: 'warning',
    title: text('存在重复的 GID', 'GIDs are shared'),
    advice: text('为每个组分配唯一 GID', 'Give every group its own GID'),
    uses: ['accounts'],
    run: (facts) => noneOf(duplicates(facts.accounts.group, (g) => g.gid, (g, first) => at('/etc/group', g.line, `${g.name} gid ${g.gid}`, `unique (also ${first.name})`)), 'every gid is unique'),
  },
  {
    id: 'accounts.duplicate_user_name',
    cisSection: '7.2',
    category: 'accounts',
    level: 'warning',
    title: text('存在重名账号', 'Account names repeat'),
    advice: text('删除或重命名重复的账号行', 'Remove or rename the repeated account lines'),
    uses: ['accounts'],
    run: (facts) => noneOf(duplicates(facts.accounts.passwd, (p) => p.name, (p, first) => at('/etc/passwd', p.line, p.name, `unique (first on line ${first.line})`)), 'every account name is unique'),
  },
  {
    id: 'accounts.duplicate_group_name',
    cisSection: '7.2',
    category: 'accounts',
    level: 'warning',
    title: text('存在重名用户组', 'Group names repeat'),
    advice: text('删除或重命名重复的组行', 'Remove or rename the repeated group lines'),
    uses: ['accounts'],
    run: (facts) => noneOf(duplicates(facts.accounts.group, (g) => g.name, (g, first) => at('/etc/group', g.line, g.name, `unique (first on line ${first.line})`)), 'every group name is unique'),
  },
  {
    id: 'accounts.primary_group_exists',
    cisSection: '7.2',
    category: 'accounts',
    level: 'hint',
    title: text('账号的主组不存在', "An account's primary group does not exist"),
    advice: text('在 /etc/group 中补上该组或修改账号的 GID', 'Add the group to /etc/group or change the account’s GID'),
    uses: ['accounts'],
    run: (facts) => {
      const gids = new Set(facts.accounts.group.map((g) => g.gid));
      return noneOf(facts.accounts.passwd.filter((p) => !gids.has(p.gid)).map((p) => at('/etc/passwd', p.line, `${p.name} gid ${p.gid}`, 'a gid listed in /etc/group')), 'every primary group exists');
    },
  },
  {
    id: 'accounts.system_login_shell',
    cisSection: '7.2',
    category: 'accounts',
    level: 'warning',
    title: text('系统账号拥有登录 shell', 'System accounts have a login shell'),
    advice: text('用 usermod -s /usr/sbin/nologin 收回系统账号的 shell', 'Take the shell away with usermod -s /usr/sbin/nologin'),
    uses: ['accounts', 'loginDefs'],
    run: (facts) => noneOf(facts.accounts.passwd.filter(systemShell(facts)).map((p) => at('/etc/passwd', p.line, `${p.name} (uid ${p.uid}) ${p.shell}`, '/usr/sbin/nologin')), 'no system account has a login shell'),
  },
  {
    id: 'accounts.home_permissions',
    cisSection: '7.2',
    category: 'accounts',
    level: 'warning',
    title: text('用户主目录权限过宽', 'Home directories are too permissive'),
    advice: text('主目录应归其用户所有，组不可写、其他用户无权限（0750 或更严）', 'A home directory should belong to its user, with no group write and no access for others (0750 or stricter)'),
    uses: ['accounts'],
    run: (facts) => {
      const found: AuditEvidence[] = [];
      for (const p of facts.accounts.passwd) {
        const home = facts.accounts.homes.get(p.name);
        if (!home || p.uid === 0) continue;
        if ((home.mode & 0o027) !== 0 || home.uid !== p.uid)
          found.push({ file: p.home, found: `${home.mode.toString(8).padStart(4, '0')} uid ${home.uid}`, expected: `0750 or stricter, uid ${p.uid}`, note: p.name });
      }
      return noneOf(found, 'every home directory is private');
    },
    fix: (facts) => ({
      kind: 'attributes',
      targets: facts.accounts.passwd.flatMap((p) => {
        const home = facts.accounts.homes.get(p.name);
        // Only the mode: handing a directory to another owner is a decision for a person.
        return home && p.uid !== 0 && (home.mode & 0o027) !== 0 ? [{ path: p.home, mode: home.mode & ~0o027 }] : [];
      }),
    }),
  },
];
