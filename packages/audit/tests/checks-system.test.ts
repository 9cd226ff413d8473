import { afterAll, describe, expect, it } from 'vitest';
import { defaultModuleFlags } from '@rampart/contracts';
import { checksById, judge, recordedExecutor } from '../src/index.ts';
import { baseAccounts, factsOf, makeRoot, removeRoots } from './fixture-root.ts';
import { judgeIn } from './judge-helper.ts';
import { gatherFacts } from '../src/facts/facts.ts';
import { sysctlKeys } from '../src/checks/sysctl.ts';

afterAll(removeRoots);

describe('file permission checks', () => {
  it('judge the account databases by mode, owner and group', async () => {
    const good = await judgeIn(baseAccounts, ['files.passwd', 'files.shadow', 'files.group', 'files.gshadow', 'files.passwd_backup']);
    expect(good['files.shadow']?.outcome).toBe('pass');
    expect(good['files.passwd_backup']?.outcome).toBe('not_applicable');
    const bad = await judgeIn({ ...baseAccounts, '/etc/shadow': { ...(baseAccounts['/etc/shadow'] as object), mode: 0o644 } }, ['files.shadow']);
    expect(bad['files.shadow']).toMatchObject({ outcome: 'fail', fixable: true, evidence: [{ file: '/etc/shadow', found: '0644 0:0', expected: '0640 or stricter, owner 0, group root|shadow' }] });
  });

  const scan = ['ww /var/www/upload.php', 'wd /var/cache/drop', 'id 4755 root /usr/bin/passwd', 'id 4755 root /usr/local/bin/rootme', 'no /opt/leftover'].join('\n');
  it('read the single find pass: world-writable, no sticky bit, unexpected SUID, unowned', async () => {
    const r = await judgeIn({}, ['files.world_writable', 'files.world_writable_dirs_sticky', 'files.unexpected_setid', 'files.unowned'], recordedExecutor({ find: { stdout: scan } }));
    expect(r['files.world_writable']?.evidence).toEqual([{ file: '/var/www/upload.php', found: 'o+w', expected: 'o-w' }]);
    expect(r['files.world_writable_dirs_sticky']?.outcome).toBe('fail');
    expect(r['files.unexpected_setid']?.evidence).toEqual([{ file: '/usr/local/bin/rootme', found: '4755 root', expected: 'in Debian’s SUID/SGID list' }]);
    expect(r['files.unowned']?.outcome).toBe('fail');
    const clean = await judgeIn({}, ['files.world_writable', 'files.unexpected_setid'], recordedExecutor({ find: { stdout: 'id 4755 root /usr/bin/passwd\n' } }));
    expect(clean['files.world_writable']?.outcome).toBe('pass');
    expect(clean['files.unexpected_setid']?.outcome).toBe('pass');
  });

  it('end as error, with the reason, when find cannot run', async () => {
    const r = await judgeIn({}, ['files.world_writable']);
    expect(r['files.world_writable']).toMatchObject({ outcome: 'error', evidence: [{ note: expect.stringContaining('filesystem: find') }] });
  });
});

describe('sysctl checks', () => {
  const files = {
    '/usr/lib/sysctl.d/50-default.conf': 'net.ipv4.conf.default.rp_filter = 2\nnet.ipv4.conf.*.rp_filter = 2\n-net.ipv4.conf.all.rp_filter\nfs.protected_symlinks = 1\n',
    '/etc/sysctl.d/10-ok.conf': 'net.ipv4.ip_forward = 0\nkernel/randomize_va_space = 2\n',
    '/etc/sysctl.d/99-sysctl.conf': { link: '../sysctl.conf' },
    '/etc/sysctl.conf': 'net.ipv4.ip_forward=1\n',
  };
  const ids = ['sysctl.net.ipv4.ip_forward', 'sysctl.kernel.randomize_va_space', 'sysctl.net.ipv4.conf.default.rp_filter', 'sysctl.net.ipv4.conf.all.rp_filter', 'sysctl.fs.protected_symlinks', 'sysctl.kernel.dmesg_restrict'];

  it('read the files in systemd-sysctl order, later winning, globs and exclusions applied', async () => {
    const r = await judgeIn(files, ids);
    expect(r['sysctl.net.ipv4.ip_forward']).toMatchObject({ outcome: 'fail', evidence: [{ file: '/etc/sysctl.d/99-sysctl.conf', line: 1, found: 'net.ipv4.ip_forward = 1' }] });
    expect(r['sysctl.kernel.randomize_va_space']?.outcome).toBe('pass');
    expect(r['sysctl.net.ipv4.conf.default.rp_filter']?.evidence[0]?.line).toBe(2);
    expect(r['sysctl.net.ipv4.conf.all.rp_filter']?.outcome).toBe('not_applicable');
    expect(r['sysctl.fs.protected_symlinks']?.outcome).toBe('pass');
  });

  it('fail on a wrong live value even when the files are right', async () => {
    const exec = recordedExecutor({ sysctl: { stdout: 'kernel.randomize_va_space = 0\nnet.ipv4.ip_forward = 0\nkernel.dmesg_restrict = 1\n' } });
    const r = await judgeIn({ '/etc/sysctl.d/10-ok.conf': 'kernel.randomize_va_space = 2\n' }, ids, exec);
    expect(r['sysctl.kernel.randomize_va_space']).toMatchObject({ outcome: 'fail', evidence: [{ found: 'kernel.randomize_va_space = 0', note: 'live' }, { found: 'kernel.randomize_va_space = 2' }] });
    expect(r['sysctl.net.ipv4.ip_forward']?.outcome).toBe('pass');
    expect(r['sysctl.kernel.dmesg_restrict']?.outcome).toBe('pass');
  });
});

describe('services, ports, cron, time, logging, mounts', () => {
  const ss = [
    'tcp   LISTEN 0      128          0.0.0.0:22        0.0.0.0:*    users:(("sshd",pid=612,fd=3))',
    'tcp   LISTEN 0      64           0.0.0.0:23        0.0.0.0:*    users:(("inetd",pid=700,fd=5))',
    'tcp   LISTEN 0      511        127.0.0.1:6379      0.0.0.0:*    users:(("redis-server",pid=800,fd=6))',
    'tcp   LISTEN 0      511             [::]:80           [::]:*    users:(("nginx",pid=900,fd=7),("nginx",pid=901,fd=7))',
    'udp   UNCONN 0      0            0.0.0.0:68        0.0.0.0:*    users:(("dhclient",pid=500,fd=7))',
  ].join('\n');
  const status = (names: string[], extra = '') => names.map((n) => `Package: ${n}\nStatus: install ok installed\nVersion: 1\n`).join('\n') + extra;

  it('parse ss -ltnup and flag legacy and exposed listeners', async () => {
    const r = await judgeIn({}, ['services.legacy_listeners', 'services.exposed_listeners'], recordedExecutor({ ss: { stdout: ss } }));
    expect(r['services.legacy_listeners']?.evidence).toEqual([{ found: 'tcp 0.0.0.0:23 telnet inetd', expected: 'not listening, or loopback only' }]);
    expect(r['services.exposed_listeners']?.evidence.map((e) => e.found)).toEqual(['tcp 0.0.0.0:23 inetd', 'tcp :::80 nginx']);
    const quiet = await judgeIn({}, ['services.legacy_listeners'], recordedExecutor({ ss: { stdout: ss.split('\n')[0] as string } }));
    expect(quiet['services.legacy_listeners']?.outcome).toBe('pass');
  });

  it('judge installed packages, cron files and allow lists', async () => {
    const r = await judgeIn(
      {
        '/var/lib/dpkg/status': status(['cron', 'telnetd', 'telnet', 'gcc-12']) + '\nPackage: oldpkg\nStatus: deinstall ok config-files\n',
        '/etc/crontab': { text: '', mode: 0o644 },
        '/etc/cron.d': { dir: true, mode: 0o700 },
      },
      ['services.legacy_servers', 'services.legacy_clients', 'services.compilers', 'cron.crontab', 'cron.cron_d', 'cron.cron_daily', 'cron.allow_list', 'cron.at_allow_list', 'packages.residual_config'],
    );
    expect(r['services.legacy_servers']?.evidence).toEqual([{ found: 'telnetd', expected: 'not installed' }]);
    expect(r['services.legacy_clients']?.outcome).toBe('fail');
    expect(r['services.compilers']?.evidence[0]?.found).toBe('gcc-12');
    expect(r['cron.crontab']).toMatchObject({ outcome: 'fail', fixable: true, evidence: [{ file: '/etc/crontab', found: '0644 0:0' }] });
    expect(r['cron.cron_d']?.outcome).toBe('pass');
    expect(r['cron.cron_daily']?.outcome).toBe('not_applicable');
    expect(r['cron.allow_list']?.outcome).toBe('fail');
    expect(r['cron.at_allow_list']?.outcome).toBe('not_applicable');
    expect(r['packages.residual_config']?.evidence).toEqual([{ found: 'oldpkg', expected: 'purged' }]);
  });

  it('see time sync and auditd through systemctl, or through enabled links without systemd', async () => {
    const active = recordedExecutor({ systemctl: { code: 3, stdout: 'inactive\nactive\ninactive\ninactive\ninactive\ninactive\ninactive\nactive\ninactive\nactive\nactive\n' } });
    const r = await judgeIn({ '/var/lib/dpkg/status': status(['auditd']) }, ['time.sync_active', 'logging.auditd'], active);
    expect(r['time.sync_active']?.evidence[0]?.found).toBe('systemd-timesyncd active');
    expect(r['logging.auditd']?.evidence[0]?.found).toBe('auditd installed, not running');
    const chroot = await judgeIn({ '/etc/systemd/system/multi-user.target.wants/chrony.service': { link: '/lib/systemd/system/chrony.service' } }, ['time.sync_active']);
    expect(chroot['time.sync_active']?.evidence[0]?.found).toBe('chrony enabled');
    const none = await judgeIn({}, ['time.sync_active']);
    expect(none['time.sync_active']?.outcome).toBe('fail');
  });

  it('judge journald persistence with rsyslog as the alternative', async () => {
    const volatile = await judgeIn({ '/etc/systemd/journald.conf': '[Journal]\nStorage=volatile\n', '/var/lib/dpkg/status': status(['systemd']) }, ['logging.persistent']);
    expect(volatile['logging.persistent']).toMatchObject({ outcome: 'fail', fixable: true, evidence: [{ file: '/etc/systemd/journald.conf', line: 2, found: 'Storage=volatile' }] });
    const auto = await judgeIn({ '/etc/systemd/journald.conf': '[Journal]\n#Storage=auto\n', '/var/log/journal': { dir: true }, '/var/lib/dpkg/status': status([]) }, ['logging.persistent']);
    expect(auto['logging.persistent']?.outcome).toBe('pass');
    const dropIn = await judgeIn({ '/etc/systemd/journald.conf': '[Journal]\n', '/etc/systemd/journald.conf.d/60-x.conf': '[Journal]\nStorage=persistent\n', '/var/lib/dpkg/status': status([]) }, ['logging.persistent']);
    expect(dropIn['logging.persistent']?.evidence[0]?.file).toBe('/etc/systemd/journald.conf.d/60-x.conf');
  });

  it('judge /tmp and /dev/shm from /proc/mounts, or fstab without it', async () => {
    const proc = await judgeIn({ '/proc/mounts': 'tmpfs /tmp tmpfs rw,nosuid,nodev 0 0\ntmpfs /dev/shm tmpfs rw,nosuid,nodev,noexec 0 0\n' }, ['mounts.tmp_partition', 'mounts.tmp_options', 'mounts.dev_shm_options']);
    expect(proc['mounts.tmp_partition']?.outcome).toBe('pass');
    expect(proc['mounts.tmp_options']).toMatchObject({ outcome: 'fail', evidence: [{ file: '/proc/mounts', line: 1, note: 'missing noexec' }] });
    expect(proc['mounts.dev_shm_options']?.outcome).toBe('pass');
    const fstab = await judgeIn({ '/etc/fstab': 'UUID=1 / ext4 defaults 0 1\n' }, ['mounts.tmp_partition', 'mounts.tmp_options']);
    expect(fstab['mounts.tmp_partition']?.evidence[0]).toMatchObject({ file: '/etc/fstab', found: '/tmp on the root file system' });
    expect(fstab['mounts.tmp_options']?.outcome).toBe('not_applicable');
  });
});

describe('package integrity, updates, kernel modules, banners, Rampart modules', () => {
  it('parse dpkg --verify: changed program files fail, conffile edits do not', async () => {
    const verify = '??5??????   /usr/bin/ls\n??5?????? c /etc/ssh/sshd_config\nmissing     /usr/share/doc/x/README\n';
    const r = await judgeIn({}, ['packages.integrity', 'packages.missing_files'], recordedExecutor({ 'dpkg --verify': { code: 1, stdout: verify } }));
    expect(r['packages.integrity']?.evidence).toEqual([{ file: '/usr/bin/ls', found: '??5??????', expected: 'checksum as packaged' }]);
    expect(r['packages.missing_files']?.evidence[0]?.file).toBe('/usr/share/doc/x/README');
    const clean = await judgeIn({}, ['packages.integrity'], recordedExecutor({ 'dpkg --verify': { stdout: '??5?????? c /etc/ssh/sshd_config\n' } }));
    expect(clean['packages.integrity']?.outcome).toBe('pass');
  });

  it('parse apt-get -s dist-upgrade and separate Debian-Security', async () => {
    const sim = [
      'Reading package lists...',
      'Inst libssl3 [3.0.11-1~deb12u2] (3.0.15-1~deb12u1 Debian-Security:12/stable-security [amd64])',
      'Inst tzdata [2024a-0+deb12u1] (2025b-0+deb12u1 Debian:12.11/stable [all])',
      'Conf libssl3 (3.0.15-1~deb12u1 Debian-Security:12/stable-security [amd64])',
    ].join('\n');
    const r = await judgeIn({}, ['updates.security_pending', 'updates.pending'], recordedExecutor({ 'apt-get': { stdout: sim } }));
    expect(r['updates.security_pending']?.evidence).toEqual([{ found: 'libssl3 3.0.11-1~deb12u2 → 3.0.15-1~deb12u1', expected: 'installed' }]);
    expect(r['updates.pending']?.evidence[0]).toMatchObject({ found: '1 packages', note: 'tzdata' });
    const none = await judgeIn({}, ['updates.security_pending'], recordedExecutor({ 'apt-get': { stdout: '0 upgraded, 0 newly installed' } }));
    expect(none['updates.security_pending']?.outcome).toBe('pass');
  });

  it('find disabled kernel modules in modprobe.d, - and _ alike', async () => {
    const r = await judgeIn({ '/etc/modprobe.d/cis.conf': 'install usb_storage /bin/false\nblacklist dccp\n' }, ['modules.usb_storage', 'modules.dccp']);
    expect(r['modules.usb_storage']).toMatchObject({ outcome: 'pass', evidence: [{ file: '/etc/modprobe.d/cis.conf', line: 1 }] });
    expect(r['modules.dccp']?.outcome).toBe('fail');
  });

  it('flag banners that name the OS', async () => {
    const r = await judgeIn({ '/etc/issue': 'Debian GNU/Linux 12 \\n \\l\n', '/etc/issue.net': 'Authorized use only.\n' }, ['banner.issue', 'banner.issue_net']);
    expect(r['banner.issue']).toMatchObject({ outcome: 'fail', evidence: [{ line: 1 }] });
    expect(r['banner.issue_net']?.outcome).toBe('pass');
  });

  it('report Rampart modules of this build that are off, from the caller’s flags', async () => {
    const root = makeRoot({});
    const check = checksById.get('rampart.modules_off');
    if (!check) throw new Error('missing');
    const off = await gatherFacts({ root, exec: recordedExecutor({}), sysctlKeys, moduleFlags: { ...defaultModuleFlags(), firewall: 1, trojan: 1, tamper: 1, remote: 1, account: 1 } });
    expect(judge(check, off).evidence).toEqual([{ found: 'process off', expected: 'process on' }]);
    const unknown = await factsOf(root);
    expect(judge(check, unknown).outcome).toBe('not_applicable');
  });
});
