/**
 * Lynis test ids → the Rampart checks that cover them, or why none does. A covered entry names the
 * checks that look at the same thing (the bench refuses unknown ids); `out_of_scope` is a choice
 * with a reason; `not_yet` is a gap to close. Entries with `match` apply when the finding's text or
 * details contain it (Lynis reuses one id for several findings).
 */
export type Coverage = { kind: 'covered'; checks: string[] } | { kind: 'out_of_scope'; reason: string } | { kind: 'not_yet'; reason: string };

interface Entry {
  id: string;
  match?: RegExp;
  coverage: Coverage;
}

const covered = (...checks: string[]): Coverage => ({ kind: 'covered', checks });
const outOfScope = (reason: string): Coverage => ({ kind: 'out_of_scope', reason });
const notYet = (reason: string): Coverage => ({ kind: 'not_yet', reason });

const sysctlCheckIds = ['net.ipv4.conf.all.send_redirects', 'net.ipv4.conf.default.send_redirects', 'net.ipv4.conf.all.accept_redirects', 'net.ipv4.conf.default.accept_redirects', 'net.ipv6.conf.all.accept_redirects', 'net.ipv4.conf.all.secure_redirects', 'net.ipv4.conf.all.rp_filter', 'net.ipv4.conf.default.rp_filter', 'net.ipv4.conf.all.log_martians', 'kernel.kptr_restrict', 'kernel.dmesg_restrict', 'kernel.sysrq', 'fs.protected_fifos', 'fs.protected_regular', 'fs.suid_dumpable', 'kernel.randomize_va_space', 'net.ipv4.tcp_syncookies'].map((k) => `sysctl.${k}`);

const entries: Entry[] = [
  // Accounting and auditing
  { id: 'ACCT-9622', coverage: outOfScope('process accounting (acct) is a forensic aid, not a hardening setting; auditd covers what it records that matters') },
  { id: 'ACCT-9626', coverage: outOfScope('sysstat collects performance history; the home page already shows live host figures') },
  { id: 'ACCT-9628', coverage: covered('logging.auditd') },
  // Authentication
  { id: 'AUTH-9229', coverage: covered('pam.unix_hash', 'pam.encrypt_method') },
  { id: 'AUTH-9230', coverage: covered('pam.hash_rounds') },
  { id: 'AUTH-9262', coverage: covered('pam.pwquality_minlen', 'pam.pwquality_complexity') },
  { id: 'AUTH-9282', coverage: covered('pam.pass_max_days') },
  { id: 'AUTH-9284', coverage: outOfScope('locked accounts are safe as they are; the user audit (account tab) lists them for a person to judge') },
  { id: 'AUTH-9286', match: /maximum/i, coverage: covered('pam.pass_max_days') },
  { id: 'AUTH-9286', match: /minimum/i, coverage: covered('pam.pass_min_days') },
  { id: 'AUTH-9328', coverage: covered('pam.umask') },
  { id: 'AUTH-9408', coverage: covered('pam.faillock') },
  // Banners
  { id: 'BANN-7126', coverage: covered('banner.issue') },
  { id: 'BANN-7130', coverage: covered('banner.issue_net') },
  // Boot and services
  { id: 'BOOT-5122', coverage: notYet('a GRUB password (grub.cfg superusers): only the config file mode is checked so far') },
  { id: 'BOOT-5180', coverage: outOfScope('an informational note about SysV runlevels; systemd hosts have none') },
  { id: 'BOOT-5264', coverage: outOfScope('systemd-analyze security scores every unit’s sandboxing: advice for each service’s maintainer, not a host setting an operator can fix safely') },
  // Debian tools
  { id: 'DEB-0280', coverage: covered('packages.libpam_tmpdir') },
  { id: 'DEB-0810', coverage: outOfScope('apt-listbugs is an interactive aid for apt users; patch management shows each update’s level') },
  { id: 'DEB-0811', coverage: outOfScope('apt-listchanges is an interactive aid for apt users') },
  { id: 'DEB-0831', coverage: covered('packages.needrestart') },
  { id: 'DEB-0880', coverage: outOfScope('fail2ban: Rampart’s own remote-login protection and firewall ban brute-force sources') },
  // File systems and permissions
  { id: 'FILE-6310', match: /\/tmp/, coverage: covered('mounts.tmp_partition') },
  { id: 'FILE-6310', match: /\/home|\/var/, coverage: outOfScope('separate /home and /var partitions are a disk-layout decision made at install time; nothing an audit can fix') },
  { id: 'FILE-6374', coverage: covered('mounts.tmp_options', 'mounts.dev_shm_options') },
  { id: 'FILE-7524', coverage: covered('files.passwd', 'files.shadow', 'files.group', 'files.gshadow', 'cron.crontab', 'cron.cron_d', 'ssh.config_permissions', 'files.bootloader_config') },
  { id: 'FINT-4350', coverage: outOfScope('file integrity monitoring is the tamper-protection module’s job; the audit checks packaged files with dpkg --verify (packages.integrity)') },
  { id: 'FIRE-4513', coverage: outOfScope('the host firewall is Rampart’s firewall module') },
  { id: 'HOME-9304', coverage: covered('accounts.home_permissions') },
  { id: 'HRDN-7222', coverage: covered('services.compilers') },
  { id: 'HRDN-7230', coverage: outOfScope('a malware scanner: Rampart’s trojan (web-shell) scanner is that module') },
  { id: 'HTTP-6640', coverage: outOfScope('Apache mod_evasive: website protection (the WAF gateway) rate-limits and blocks') },
  { id: 'HTTP-6643', coverage: outOfScope('Apache ModSecurity: website protection is Rampart’s WAF') },
  // Kernel
  { id: 'KRNL-5788', coverage: outOfScope('whether /vmlinuz exists says nothing about hardening (containers and cloud images boot another way); the patch audit reports kernel updates') },
  { id: 'KRNL-5820', coverage: covered('services.core_dumps', 'sysctl.fs.suid_dumpable') },
  { id: 'KRNL-5830', coverage: notYet('reboot required after a kernel upgrade: planned with patch management') },
  { id: 'KRNL-6000', coverage: covered(...sysctlCheckIds) },
  // Logging
  { id: 'LOGG-2130', coverage: covered('logging.persistent') },
  { id: 'LOGG-2138', coverage: outOfScope('klogd: systemd-journald reads the kernel log on Debian 12; a separate klogd is obsolete') },
  { id: 'LOGG-2154', coverage: outOfScope('remote logging is configured in Rampart’s log settings (syslog forwarding)') },
  { id: 'LOGG-2190', coverage: covered('logging.deleted_open_files') },
  { id: 'LYNIS', coverage: outOfScope('about Lynis’s own version') },
  { id: 'MAIL-8818', coverage: outOfScope('the SMTP banner of a mail server: mail servers are not audited') },
  { id: 'NAME-4028', coverage: outOfScope('a DNS domain name is naming, not security') },
  { id: 'NAME-4404', coverage: outOfScope('/etc/hosts naming consistency is not security') },
  { id: 'NETW-3200', match: /dccp/, coverage: covered('modules.dccp') },
  { id: 'NETW-3200', match: /rds/, coverage: covered('modules.rds') },
  { id: 'NETW-3200', match: /sctp/, coverage: covered('modules.sctp') },
  { id: 'NETW-3200', match: /tipc/, coverage: covered('modules.tipc') },
  // Packages
  { id: 'PKGS-7346', coverage: covered('packages.residual_config') },
  { id: 'PKGS-7370', coverage: covered('packages.integrity', 'packages.missing_files') },
  { id: 'PKGS-7392', coverage: covered('updates.security_pending', 'updates.pending') },
  { id: 'PKGS-7394', coverage: outOfScope('apt-show-versions: patch management reads apt directly') },
  { id: 'PKGS-7420', coverage: covered('packages.unattended_upgrades') },
  // SSH (SSH-7408 names the option in its details)
  { id: 'SSH-7408', match: /AllowTcpForwarding/, coverage: covered('ssh.allow_tcp_forwarding') },
  { id: 'SSH-7408', match: /ClientAliveCountMax/, coverage: covered('ssh.client_alive_count_max') },
  { id: 'SSH-7408', match: /LogLevel/, coverage: covered('ssh.log_level') },
  { id: 'SSH-7408', match: /MaxAuthTries/, coverage: covered('ssh.max_auth_tries') },
  { id: 'SSH-7408', match: /MaxSessions/, coverage: covered('ssh.max_sessions') },
  { id: 'SSH-7408', match: /PermitRootLogin/, coverage: covered('ssh.permit_root_login', 'ssh.permit_root_login_password') },
  { id: 'SSH-7408', match: /X11Forwarding/, coverage: covered('ssh.x11_forwarding') },
  { id: 'SSH-7408', match: /AllowAgentForwarding/, coverage: covered('ssh.allow_agent_forwarding') },
  { id: 'SSH-7408', match: /Compression|TCPKeepAlive/, coverage: notYet('Compression and TCPKeepAlive are not checked yet') },
  { id: 'SSH-7408', match: /Port/, coverage: outOfScope('moving sshd off port 22 is obscurity; remote-login protection restricts who reaches the port') },
  { id: 'SSH-7440', coverage: outOfScope('AllowUsers/AllowGroups: the user audit shows each account’s remote-login permission') },
  // Storage, tools, time
  { id: 'STRG-1846', coverage: covered('modules.firewire_core', 'modules.firewire_ohci') },
  { id: 'TIME-3104', coverage: covered('time.sync_active') },
  { id: 'TOOL-5002', coverage: outOfScope('automation tools (Ansible, Puppet) are a management choice, not a finding') },
  { id: 'USB-1000', coverage: covered('modules.usb_storage') },
];

/** Every Rampart check id the map names as covering a Lynis test (the bench's dry run checks they exist). */
export const mappedCheckIds = (): string[] => [...new Set(entries.flatMap((e) => (e.coverage.kind === 'covered' ? e.coverage.checks : [])))];

export function coverageOf(id: string, details: string, text = ''): Coverage {
  const candidates = entries.filter((e) => e.id === id);
  const hit = candidates.find((e) => e.match?.test(`${text} ${details}`)) ?? candidates.find((e) => !e.match);
  return hit?.coverage ?? notYet('no mapping written for this Lynis test yet');
}
