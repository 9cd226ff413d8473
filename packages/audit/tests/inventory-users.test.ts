import { afterAll, describe, expect, it } from 'vitest';
import { recordedExecutor } from '../src/index.ts';
import { collectUsers } from '../src/inventory/users.ts';
import { parseLast, parseLastlog } from '../src/inventory/last-login.ts';
import { hashKind, weakHash } from '../src/inventory/password-hash.ts';
import { makeRoot, removeRoots } from './fixture-root.ts';

/*
 * The user audit on fixture roots written into temp dirs (passwd, shadow, group, sudoers, sshd_config):
 * statuses, groups, remote-login permission by sshd's rules, the findings, and that no hash leaves.
 * lastlog's output is recorded from this machine's Debian 12 `lastlog` format.
 */
afterAll(removeRoots);

const now = Date.UTC(2026, 5, 15, 12);
const day = Math.floor(now / 86_400_000);
const lastlog = [
  'Username         Port     From                                       Latest',
  'root             pts/0    192.0.2.7                                 Sun Jun 14 09:30:00 +0000 2026',
  'admin            tty1                                               Mon Jun  1 08:00:00 +0000 2026',
  'daemon                                                              **Never logged in**',
].join('\n');

const root = () =>
  makeRoot({
    '/etc/passwd': [
      'root:x:0:0:root:/root:/bin/bash',
      'daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin',
      'toor:x:0:0:second root:/root:/bin/bash',
      'admin:x:1000:1000:Admin,,,:/home/admin:/bin/bash',
      'guest:x:1001:1001:Guest:/nohome:/bin/bash',
      'old:x:1002:1002:Old scheme:/nohome:/bin/sh',
      'deploy:x:1003:1003:Deploy bot:/nohome:/bin/bash',
      'gone:x:1004:1004::/nohome:/bin/bash',
    ].join('\n') + '\n',
    '/etc/group': 'root:x:0:\ndaemon:x:1:\nsudo:x:27:admin\nadmin:x:1000:\nguest:x:1001:\nold:x:1002:\ndeploy:x:1003:\nops:x:1004:gone\n',
    '/etc/shadow': [
      'root:$y$j9T$abc$def:19700:0:99999:7:::',
      'daemon:*:19700:0:99999:7:::',
      'toor:$6$salt$hash:19700:0:99999:7:::',
      'admin:$y$j9T$ghi$jkl:19700:0:99999:7:::',
      `guest::${day - 2}:0:99999:7:::`,
      'old:$1$abcdefgh$0123456789abcdefghijkl:19700:0:99999:7:::',
      'deploy:!$5$rounds=1000$salt$hash:19700:0:99999:7:::',
      `gone:$6$salt$hash:19700:0:99999:7::${day - 1}:`,
    ].join('\n') + '\n',
    '/home/admin': { dir: true, mode: 0o700, uid: 1000 },
    '/home/admin/.ssh/authorized_keys': 'ssh-ed25519 AAAAC3Nza admin@laptop\n',
    '/etc/sudoers': 'Defaults env_reset\nroot ALL=(ALL:ALL) ALL\n%sudo ALL=(ALL:ALL) ALL\n@includedir /etc/sudoers.d\n',
    '/etc/sudoers.d/deploy': 'User_Alias BOTS = deploy\nBOTS ALL=(ALL) NOPASSWD: ALL\n',
    '/etc/sudoers.d/README': '# files with a dot are skipped\n',
    '/etc/sudoers.d/skip.bak': 'guest ALL=(ALL) ALL\n',
    '/etc/ssh/sshd_config': 'PermitRootLogin prohibit-password\nDenyUsers old\nDenyGroups ops\nPasswordAuthentication yes\nPermitEmptyPasswords no\n',
  });

describe('the user audit', () => {
  it('lists every account with status, groups, last login, remote login and findings, without hashes', async () => {
    const users = await collectUsers({ root: root(), exec: recordedExecutor({ lastlog: { stdout: lastlog } }), now });
    const by = Object.fromEntries(users.map((u) => [u.name, u]));
    expect(users.map((u) => u.name)).toEqual(['root', 'daemon', 'toor', 'admin', 'guest', 'old', 'deploy', 'gone']);
    expect(JSON.stringify(users)).not.toMatch(/\$[156y]\$|j9T/);

    expect(by.root).toMatchObject({ status: 'normal', hash_kind: 'yescrypt', sudo: true, findings: [], remote: { ssh: 'no_credential', methods: [], rule: 'PermitRootLogin prohibit-password' } });
    expect(by.root!.last_login).toEqual({ at: Date.UTC(2026, 5, 14, 9, 30), from: '192.0.2.7', known: true });
    expect(by.daemon).toMatchObject({ status: 'no_login', hash_kind: 'none', remote: { ssh: 'no_shell' }, last_login: { at: null, known: true } });
    expect(by.admin).toMatchObject({ group: 'admin', groups: ['sudo'], description: 'Admin,,,', sudo: true, findings: [], remote: { ssh: 'allowed', methods: ['key', 'password'] } });
    expect(by.admin!.last_login).toMatchObject({ at: Date.UTC(2026, 5, 1, 8), from: null });

    expect(by.toor!.findings).toEqual([{ kind: 'uid0_duplicate', level: 'danger', detail: 'uid 0 (/etc/passwd:3)' }]);
    // An empty password, set two days ago with no home: danger, and created recently.
    expect(by.guest!.findings.map((f) => [f.kind, f.level])).toEqual([['empty_password', 'danger'], ['recently_created', 'warning']]);
    expect(by.guest!.remote).toEqual({ ssh: 'no_credential', methods: [], rule: null });
    expect(by.old!.findings).toEqual([{ kind: 'weak_hash', level: 'danger', detail: 'md5' }]);
    expect(by.old!.remote).toEqual({ ssh: 'denied', methods: [], rule: 'DenyUsers old' });
    expect(by.deploy).toMatchObject({ status: 'password_locked', hash_kind: 'locked', sudo: true });
    expect(by.deploy!.findings).toEqual([{ kind: 'unexpected_sudoer', level: 'warning', detail: '/etc/sudoers.d/deploy:2 BOTS ALL=(ALL) NOPASSWD: ALL' }]);
    expect(by.gone).toMatchObject({ status: 'expired', remote: { ssh: 'denied', rule: 'DenyGroups ops' } });
  });

  it('says "unknown" when no login record can be read, and honours AllowUsers and sshd -T', async () => {
    const exec = recordedExecutor({ 'sshd -T': { stdout: 'permitrootlogin no\npasswordauthentication no\npubkeyauthentication yes\nallowusers root\nallowusers admin\nallowusers deploy\n' } });
    const users = await collectUsers({ root: root(), exec, now });
    const by = Object.fromEntries(users.map((u) => [u.name, u]));
    expect(by.admin!.last_login).toEqual({ at: null, from: null, known: false });
    expect(by.root!.remote).toEqual({ ssh: 'denied', methods: [], rule: 'PermitRootLogin no' });
    expect(by.admin!.remote).toEqual({ ssh: 'allowed', methods: ['key'], rule: null });
    expect(by.guest!.remote).toEqual({ ssh: 'denied', methods: [], rule: 'AllowUsers root admin deploy' });
  });

  it('judges hash schemes and reads both login record formats', () => {
    expect(['$y$j9T$a$b', '$6$s$h', '$5$s$h', '$1$s$h', 'abcdefghijklm', '', '!$6$x', '*', '$2b$12$x'].map(hashKind)).toEqual(['yescrypt', 'sha512', 'sha256', 'md5', 'des', 'empty', 'locked', 'none', 'bcrypt']);
    expect(weakHash('$6$rounds=1000$s$h')).toEqual({ level: 'warning', detail: 'sha512 rounds=1000' });
    expect(weakHash('$5$s$h')).toEqual({ level: 'warning', detail: 'sha256 rounds=5000' });
    expect(weakHash('$y$j9T$a$b')).toBeNull();
    expect(parseLastlog(lastlog).get('daemon')).toEqual({ at: null, from: null });
    const last = parseLast('admin    pts/1        198.51.100.4     Sun Jun 14 10:00:00 2026 - Sun Jun 14 11:00:00 2026  (01:00)\nreboot   system boot  6.1.0-9-amd64    Sun Jun 14 09:00:00 2026   still running\nadmin    pts/0        10.0.0.1         Sat Jun 13 10:00:00 2026 - down\n');
    expect([...last.keys()]).toEqual(['admin']);
    expect(last.get('admin')).toEqual({ at: new Date(2026, 5, 14, 10).getTime(), from: '198.51.100.4' });
  });
});
