import { afterAll, describe, expect, it } from 'vitest';
import { recordedExecutor } from '../src/index.ts';
import { baseAccounts, removeRoots } from './fixture-root.ts';
import { judgeIn } from './judge-helper.ts';

afterAll(removeRoots);

const sshIds = ['ssh.permit_root_login_password', 'ssh.permit_root_login', 'ssh.password_authentication', 'ssh.permit_empty_passwords', 'ssh.max_auth_tries', 'ssh.login_grace_time', 'ssh.client_alive_interval', 'ssh.client_alive_count_max', 'ssh.x11_forwarding', 'ssh.weak_ciphers', 'ssh.weak_macs', 'ssh.weak_kexalgorithms', 'ssh.config_permissions'];

describe('SSH checks', () => {
  it('fail on a permissive config, with file, line, found and expected', async () => {
    const r = await judgeIn(
      {
        '/etc/ssh/sshd_config': { mode: 0o644, text: 'PermitRootLogin yes\nPasswordAuthentication yes\nPermitEmptyPasswords yes\nMaxAuthTries 6\nLoginGraceTime 2m\nX11Forwarding yes\nCiphers aes256-ctr,aes128-cbc\nMACs +hmac-md5\nKexAlgorithms diffie-hellman-group1-sha1,curve25519-sha256\nClientAliveCountMax 0\n' },
      },
      sshIds,
    );
    for (const id of sshIds) expect(r[id]?.outcome, id).toBe('fail');
    expect(r['ssh.permit_root_login_password']?.evidence[0]).toMatchObject({ file: '/etc/ssh/sshd_config', line: 1, found: 'PermitRootLogin yes', expected: 'PermitRootLogin prohibit-password or no' });
    expect(r['ssh.login_grace_time']?.evidence[0]).toMatchObject({ line: 5, found: 'LoginGraceTime 2m' });
    // "+hmac-md5" appends to the default list.
    expect(r['ssh.weak_macs']?.evidence[0]?.found).toContain('hmac-md5');
    expect(r['ssh.client_alive_interval']?.evidence[0]).toMatchObject({ found: 'ClientAliveInterval 0', note: 'source: default' });
    expect(r['ssh.permit_root_login']?.fixable).toBe(true);
  });

  it('pass on a hardened config', async () => {
    const r = await judgeIn(
      {
        '/etc/ssh/sshd_config': { mode: 0o600, text: 'Include /etc/ssh/sshd_config.d/*.conf\n' },
        '/etc/ssh/sshd_config.d/10-hard.conf': 'PermitRootLogin no\nPasswordAuthentication no\nMaxAuthTries 3\nLoginGraceTime 30\nClientAliveInterval 300\nClientAliveCountMax 2\nMACs hmac-sha2-256-etm@openssh.com\n',
      },
      sshIds,
    );
    for (const id of sshIds) expect(r[id]?.outcome, id).toBe('pass');
  });

  it('trust sshd -T over the files when it answers', async () => {
    const exec = recordedExecutor({ 'sshd -T': { stdout: 'permitrootlogin no\nmaxauthtries 6\n' } });
    const r = await judgeIn({ '/etc/ssh/sshd_config': 'PermitRootLogin yes\n' }, ['ssh.permit_root_login', 'ssh.max_auth_tries'], exec);
    expect(r['ssh.permit_root_login']).toMatchObject({ outcome: 'pass', evidence: [{ found: 'PermitRootLogin no', note: 'source: sshd -T', line: 1 }] });
    expect(r['ssh.max_auth_tries']?.outcome).toBe('fail');
  });

  it('do not apply without sshd', async () => {
    const r = await judgeIn({ '/etc/hostname': 'x\n' }, ['ssh.permit_root_login']);
    expect(r['ssh.permit_root_login']?.outcome).toBe('not_applicable');
  });
});

const pamIds = ['pam.pass_max_days', 'pam.pass_min_days', 'pam.pass_warn_age', 'pam.umask', 'pam.encrypt_method', 'pam.pwquality_minlen', 'pam.pwquality_complexity', 'pam.faillock', 'pam.unix_nullok', 'pam.unix_hash'];

describe('password and PAM checks', () => {
  it('fail on Debian defaults', async () => {
    const r = await judgeIn(
      {
        '/etc/login.defs': 'PASS_MAX_DAYS\t99999\nPASS_MIN_DAYS\t0\nPASS_WARN_AGE\t5\nUMASK\t\t022\nENCRYPT_METHOD MD5\n',
        '/etc/pam.d/common-password': 'password\t[success=1 default=ignore]\tpam_unix.so obscure md5\n',
        '/etc/pam.d/common-auth': 'auth\t[success=1 default=ignore]\tpam_unix.so nullok\n',
      },
      pamIds,
    );
    for (const id of pamIds) expect(r[id]?.outcome, id).toBe('fail');
    expect(r['pam.pass_max_days']?.evidence[0]).toEqual({ file: '/etc/login.defs', line: 1, found: 'PASS_MAX_DAYS 99999', expected: 'PASS_MAX_DAYS 1-365' });
    expect(r['pam.unix_nullok']?.evidence[0]).toMatchObject({ file: '/etc/pam.d/common-auth', line: 1 });
    expect(r['pam.pwquality_minlen']?.evidence[0]?.found).toBe('no pam_pwquality.so');
  });

  it('pass on a hardened policy, module arguments overriding pwquality.conf', async () => {
    const r = await judgeIn(
      {
        '/etc/login.defs': 'PASS_MAX_DAYS 365\nPASS_MIN_DAYS 1\nPASS_WARN_AGE 7\nUMASK 027\nENCRYPT_METHOD YESCRYPT\n',
        '/etc/security/pwquality.conf': 'minlen = 8\nminclass = 4\n',
        '/etc/pam.d/common-password': 'password requisite pam_pwquality.so retry=3 minlen=14\n@include common-unix\n',
        '/etc/pam.d/common-unix': 'password [success=1 default=ignore] pam_unix.so obscure use_authtok yescrypt\n',
        '/etc/pam.d/common-auth': 'auth required pam_faillock.so preauth\nauth [success=1 default=ignore] pam_unix.so\n',
      },
      pamIds,
    );
    for (const id of pamIds) expect(r[id]?.outcome, id).toBe('pass');
    expect(r['pam.unix_hash']?.evidence[0]).toMatchObject({ file: '/etc/pam.d/common-unix', line: 1 });
  });
});

describe('account checks', () => {
  const ids = ['accounts.uid0_only_root', 'accounts.empty_password', 'accounts.shadowed_passwords', 'accounts.duplicate_uid', 'accounts.duplicate_gid', 'accounts.duplicate_user_name', 'accounts.duplicate_group_name', 'accounts.primary_group_exists', 'accounts.system_login_shell', 'accounts.home_permissions'];

  it('pass on a clean account set', async () => {
    const r = await judgeIn(baseAccounts, ids);
    for (const id of ids) expect(r[id]?.outcome, id).toBe('pass');
  });

  it('fail naming the line of each offending entry', async () => {
    const r = await judgeIn(
      {
        ...baseAccounts,
        '/etc/passwd': 'root:x:0:0:root:/root:/bin/bash\ntoor:x:0:0::/root:/bin/sh\ndaemon:x:1:1::/usr/sbin:/bin/sh\nadmin:x:1000:1000::/home/admin:/bin/bash\nadmin:hash:1001:5000::/home/admin2:/bin/bash\nbob:x:1000:1000::/home/bob:/bin/bash\n',
        '/etc/group': 'root:x:0:\nsudo:x:27:admin\nadmin:x:1000:\nadmin:x:27:\n',
        '/etc/shadow': 'root:$y$abc:1::::::\nbob::1::::::\n',
        '/home/admin': { dir: true, mode: 0o755 },
      },
      ids,
    );
    for (const id of ids) expect(r[id]?.outcome, id).toBe('fail');
    expect(r['accounts.uid0_only_root']?.evidence).toEqual([{ file: '/etc/passwd', line: 2, found: 'toor', expected: 'only root' }]);
    expect(r['accounts.empty_password']?.evidence[0]).toMatchObject({ file: '/etc/shadow', line: 2, found: 'bob: empty' });
    expect(r['accounts.duplicate_uid']?.evidence.map((e) => e.line)).toEqual([2, 6]);
    expect(r['accounts.system_login_shell']?.evidence).toContainEqual(expect.objectContaining({ line: 3, found: 'daemon (uid 1) /bin/sh' }));
    expect(r['accounts.home_permissions']?.evidence[0]).toMatchObject({ file: '/home/admin', found: expect.stringMatching(/^0755 uid /) });
  });
});
