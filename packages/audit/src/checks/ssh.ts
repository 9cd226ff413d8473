import { effectiveSshd } from '../facts/sshd-config.ts';
import type { Facts } from '../facts/facts.ts';
import { fail, notApplicable, pass, text, type AuditCheck, type Verdict } from './check.ts';
import type { AuditLevel, LocalizedText } from '@rampart/contracts';

/**
 * SSH server settings (CIS Debian 12 section 5.1), read from the effective global configuration.
 * Most are one keyword with an accepted set of values and a value the fix writes: a table.
 */
interface SshRule {
  id: string;
  keyword: string;
  level: AuditLevel;
  accepts: (value: string) => boolean;
  expected: string;
  /** The value the drop-in writes; absent when no automatic fix is safe. */
  fix?: string;
  title: LocalizedText;
  advice: LocalizedText;
}

const lower = (v: string) => v.trim().toLowerCase();
const num = (v: string) => Number(v.trim().split(/\s+/)[0]);
/** LoginGraceTime takes 60, 1m, 1m30s. */
function seconds(v: string): number {
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s?)?$/i.exec(v.trim());
  return m ? Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0) : NaN;
}

const rules: SshRule[] = [
  {
    id: 'ssh.permit_root_login_password', keyword: 'PermitRootLogin', level: 'danger', accepts: (v) => lower(v) !== 'yes', expected: 'prohibit-password or no', fix: 'prohibit-password',
    title: text('root 可以用密码远程登录', 'root can log in over SSH with a password'),
    advice: text('将 PermitRootLogin 设为 prohibit-password（仅公钥）或 no，防止对 root 的密码爆破', 'Set PermitRootLogin to prohibit-password (keys only) or no, so root cannot be brute-forced by password'),
  },
  {
    id: 'ssh.permit_root_login', keyword: 'PermitRootLogin', level: 'warning', accepts: (v) => lower(v) === 'no', expected: 'no', fix: 'no',
    title: text('允许 root 直接远程登录', 'root may log in over SSH directly'),
    advice: text('将 PermitRootLogin 设为 no，管理员用个人账号登录后再 sudo，操作可追溯到人', 'Set PermitRootLogin to no: administrators log in with their own account and use sudo, so actions trace back to a person'),
  },
  {
    id: 'ssh.password_authentication', keyword: 'PasswordAuthentication', level: 'warning', accepts: (v) => lower(v) === 'no', expected: 'no', fix: 'no',
    title: text('SSH 允许密码登录', 'SSH accepts password login'),
    advice: text('为管理员配置公钥后，将 PasswordAuthentication 设为 no，密码爆破即无从下手', 'Once administrators have keys, set PasswordAuthentication to no so password guessing has nothing to attack'),
  },
  {
    id: 'ssh.permit_empty_passwords', keyword: 'PermitEmptyPasswords', level: 'danger', accepts: (v) => lower(v) === 'no', expected: 'no', fix: 'no',
    title: text('SSH 允许空密码账号登录', 'SSH lets accounts with an empty password log in'),
    advice: text('将 PermitEmptyPasswords 设为 no', 'Set PermitEmptyPasswords to no'),
  },
  {
    id: 'ssh.max_auth_tries', keyword: 'MaxAuthTries', level: 'warning', accepts: (v) => num(v) >= 1 && num(v) <= 4, expected: '1-4', fix: '4',
    title: text('每次连接允许的认证尝试次数过多', 'Too many authentication attempts per connection'),
    advice: text('将 MaxAuthTries 设为 4 或更小，减慢每个连接上的密码猜测', 'Set MaxAuthTries to 4 or less to slow password guessing on each connection'),
  },
  {
    id: 'ssh.login_grace_time', keyword: 'LoginGraceTime', level: 'hint', accepts: (v) => seconds(v) >= 1 && seconds(v) <= 60, expected: '1-60 s', fix: '60',
    title: text('未认证连接保持时间过长', 'Unauthenticated connections are held too long'),
    advice: text('将 LoginGraceTime 设为 60 秒或更短，减少未认证连接占用', 'Set LoginGraceTime to 60 seconds or less so unauthenticated connections do not pile up'),
  },
  {
    id: 'ssh.client_alive_interval', keyword: 'ClientAliveInterval', level: 'hint', accepts: (v) => seconds(v) >= 1 && seconds(v) <= 900, expected: '1-900 s', fix: '300',
    title: text('SSH 空闲会话不会被断开', 'Idle SSH sessions are never closed'),
    advice: text('将 ClientAliveInterval 设为 300（与 ClientAliveCountMax 一起决定空闲断开时间）', 'Set ClientAliveInterval to 300 (with ClientAliveCountMax it decides when an idle session is closed)'),
  },
  {
    id: 'ssh.client_alive_count_max', keyword: 'ClientAliveCountMax', level: 'hint', accepts: (v) => num(v) >= 1 && num(v) <= 3, expected: '1-3', fix: '3',
    title: text('空闲探测次数不合适', 'Idle probe count is out of range'),
    advice: text('将 ClientAliveCountMax 设为 1-3；0 会使空闲断开失效', 'Set ClientAliveCountMax to 1-3; 0 turns the idle timeout off'),
  },
  {
    id: 'ssh.x11_forwarding', keyword: 'X11Forwarding', level: 'hint', accepts: (v) => lower(v) === 'no', expected: 'no', fix: 'no',
    title: text('SSH 开启了 X11 转发', 'SSH forwards X11'),
    advice: text('服务器无需图形界面时将 X11Forwarding 设为 no', 'Set X11Forwarding to no on a server that needs no graphical sessions'),
  },
  {
    id: 'ssh.allow_tcp_forwarding', keyword: 'AllowTcpForwarding', level: 'hint', accepts: (v) => lower(v) === 'no', expected: 'no', fix: 'no',
    title: text('SSH 允许 TCP 端口转发', 'SSH allows TCP port forwarding'),
    advice: text('不需要隧道时将 AllowTcpForwarding 设为 no，避免 SSH 被用作跳板', 'Set AllowTcpForwarding to no when no tunnels are needed, so SSH cannot be used as a pivot'),
  },
  {
    id: 'ssh.allow_agent_forwarding', keyword: 'AllowAgentForwarding', level: 'hint', accepts: (v) => lower(v) === 'no', expected: 'no', fix: 'no',
    title: text('SSH 允许代理转发', 'SSH allows agent forwarding'),
    advice: text('不需要时将 AllowAgentForwarding 设为 no，服务器被入侵时密钥代理不被滥用', 'Set AllowAgentForwarding to no when unused, so a compromised server cannot use a forwarded agent'),
  },
  {
    id: 'ssh.hostbased_authentication', keyword: 'HostbasedAuthentication', level: 'warning', accepts: (v) => lower(v) === 'no', expected: 'no', fix: 'no',
    title: text('SSH 允许基于主机的认证', 'SSH allows host-based authentication'),
    advice: text('将 HostbasedAuthentication 设为 no', 'Set HostbasedAuthentication to no'),
  },
  {
    id: 'ssh.ignore_rhosts', keyword: 'IgnoreRhosts', level: 'warning', accepts: (v) => lower(v) === 'yes', expected: 'yes', fix: 'yes',
    title: text('SSH 读取 .rhosts 文件', 'SSH reads .rhosts files'),
    advice: text('将 IgnoreRhosts 设为 yes', 'Set IgnoreRhosts to yes'),
  },
  {
    id: 'ssh.permit_user_environment', keyword: 'PermitUserEnvironment', level: 'warning', accepts: (v) => lower(v) === 'no', expected: 'no', fix: 'no',
    title: text('SSH 允许用户设置环境变量', 'SSH lets users set environment variables'),
    advice: text('将 PermitUserEnvironment 设为 no，防止用户借 LD_PRELOAD 等绕过限制', 'Set PermitUserEnvironment to no so users cannot bypass restrictions with LD_PRELOAD and the like'),
  },
  {
    id: 'ssh.log_level', keyword: 'LogLevel', level: 'hint', accepts: (v) => ['info', 'verbose'].includes(lower(v)), expected: 'INFO or VERBOSE', fix: 'VERBOSE',
    title: text('SSH 日志级别不足', 'SSH logs too little'),
    advice: text('将 LogLevel 设为 VERBOSE（记录登录所用公钥指纹）或 INFO', 'Set LogLevel to VERBOSE (records the key fingerprint of each login) or INFO'),
  },
  {
    id: 'ssh.max_sessions', keyword: 'MaxSessions', level: 'hint', accepts: (v) => num(v) >= 1 && num(v) <= 10, expected: '1-10', fix: '10',
    title: text('每个连接允许的会话数过多', 'Too many sessions per connection'),
    advice: text('将 MaxSessions 设为 10 或更小', 'Set MaxSessions to 10 or less'),
  },
  {
    id: 'ssh.max_startups', keyword: 'MaxStartups', level: 'hint',
    accepts: (v) => {
      const [start, , full] = v.split(':').map(Number);
      return (start ?? Infinity) <= 10 && (full ?? start ?? Infinity) <= 60;
    },
    expected: '10:30:60 or stricter', fix: '10:30:60',
    title: text('未认证并发连接上限过高', 'The limit of concurrent unauthenticated connections is high'),
    advice: text('将 MaxStartups 设为 10:30:60，缓解连接耗尽攻击', 'Set MaxStartups to 10:30:60 to blunt connection-exhaustion attacks'),
  },
];

/** Entries that are weak by today's standards (CIS 5.1, NIST SP 800-131A, OpenSSH's own deprecations). */
const weak = {
  ciphers: ['3des-cbc', 'aes128-cbc', 'aes192-cbc', 'aes256-cbc', 'blowfish-cbc', 'cast128-cbc', 'arcfour', 'arcfour128', 'arcfour256', 'rijndael-cbc@lysator.liu.se'],
  macs: ['hmac-md5', 'hmac-md5-96', 'hmac-ripemd160', 'hmac-sha1-96', 'umac-64@openssh.com', 'hmac-md5-etm@openssh.com', 'hmac-md5-96-etm@openssh.com', 'hmac-ripemd160-etm@openssh.com', 'hmac-sha1-96-etm@openssh.com', 'umac-64-etm@openssh.com'],
  kexalgorithms: ['diffie-hellman-group1-sha1', 'diffie-hellman-group14-sha1', 'diffie-hellman-group-exchange-sha1'],
};
/** What the fix writes: OpenSSH 9.2's defaults without the weak entries. */
const strong = {
  ciphers: 'chacha20-poly1305@openssh.com,aes256-gcm@openssh.com,aes128-gcm@openssh.com,aes256-ctr,aes192-ctr,aes128-ctr',
  macs: 'hmac-sha2-512-etm@openssh.com,hmac-sha2-256-etm@openssh.com,umac-128-etm@openssh.com,hmac-sha2-512,hmac-sha2-256,umac-128@openssh.com',
  kexalgorithms: 'sntrup761x25519-sha512@openssh.com,curve25519-sha256,curve25519-sha256@libssh.org,ecdh-sha2-nistp521,ecdh-sha2-nistp384,ecdh-sha2-nistp256,diffie-hellman-group-exchange-sha256,diffie-hellman-group16-sha512,diffie-hellman-group18-sha512',
};

function sshVerdict(facts: Facts, keyword: string, accepts: (value: string) => boolean, expected: string): Verdict {
  if (!facts.sshd.present) return notApplicable('sshd is not installed');
  const effective = effectiveSshd(facts.sshd, keyword);
  const evidence = { file: effective.file, line: effective.line, found: `${keyword} ${effective.value}`, expected: `${keyword} ${expected}`, note: `source: ${effective.source}` };
  return accepts(effective.value) ? pass(evidence) : fail(evidence);
}

const fromRule = (rule: SshRule): AuditCheck => ({
  id: rule.id,
  cisSection: '5.1',
  category: 'ssh',
  level: rule.level,
  title: rule.title,
  advice: rule.advice,
  uses: ['sshd'],
  run: (facts) => sshVerdict(facts, rule.keyword, rule.accepts, rule.expected),
  fix: rule.fix === undefined ? undefined : () => ({ kind: 'sshd_dropin', settings: { [rule.keyword]: rule.fix as string } }),
});

const algorithmCheck = (key: keyof typeof weak, keyword: string, title: LocalizedText, advice: LocalizedText): AuditCheck => ({
  id: `ssh.weak_${key}`,
  cisSection: '5.1',
  category: 'ssh',
  level: 'warning',
  title,
  advice,
  uses: ['sshd'],
  run: (facts) => sshVerdict(facts, keyword, (v) => !v.split(',').some((a) => weak[key].includes(a.trim().toLowerCase())), `no ${weak[key].join(',')}`),
  fix: () => ({ kind: 'sshd_dropin', settings: { [keyword]: strong[key] } }),
});

const sshConfigMode: AuditCheck = {
  id: 'ssh.config_permissions',
  cisSection: '5.1',
  category: 'ssh',
  level: 'warning',
  title: text('sshd_config 权限过宽', 'sshd_config is too permissive'),
  advice: text('/etc/ssh/sshd_config 应属 root:root，权限 0600', '/etc/ssh/sshd_config should be root:root, mode 0600'),
  uses: ['fileStats', 'sshd'],
  run: (facts) => {
    const stat = facts.fileStats.get('/etc/ssh/sshd_config');
    if (!facts.sshd.present || !stat) return notApplicable('sshd is not installed');
    const evidence = { file: stat.path, found: `${stat.mode.toString(8).padStart(4, '0')} ${stat.uid}:${stat.gid}`, expected: '0600 0:0' };
    return (stat.mode & 0o077) === 0 && stat.uid === 0 && stat.gid === 0 ? pass(evidence) : fail(evidence);
  },
  fix: () => ({ kind: 'attributes', targets: [{ path: '/etc/ssh/sshd_config', mode: 0o600, uid: 0, gid: 0 }] }),
};

export const sshChecks: AuditCheck[] = [
  ...rules.map(fromRule),
  algorithmCheck('ciphers', 'Ciphers', text('SSH 允许弱加密算法', 'SSH allows weak ciphers'), text('从 Ciphers 中去掉 CBC、3DES、arcfour 等弱算法', 'Remove CBC, 3DES, arcfour and other weak entries from Ciphers')),
  algorithmCheck('macs', 'MACs', text('SSH 允许弱消息认证算法', 'SSH allows weak MACs'), text('从 MACs 中去掉 MD5、RIPEMD160、96 位截断和 umac-64', 'Remove MD5, RIPEMD160, 96-bit truncated and umac-64 entries from MACs')),
  algorithmCheck('kexalgorithms', 'KexAlgorithms', text('SSH 允许弱密钥交换算法', 'SSH allows weak key exchange'), text('从 KexAlgorithms 中去掉基于 SHA-1 的 diffie-hellman 算法', 'Remove the SHA-1 based diffie-hellman entries from KexAlgorithms')),
  sshConfigMode,
];
