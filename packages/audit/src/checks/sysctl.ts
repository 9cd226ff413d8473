import { configuredSysctl } from '../facts/sysctl.ts';
import type { AuditCheck } from './check.ts';
import { fail, notApplicable, pass, text } from './check.ts';
import type { AuditLevel, LocalizedText } from '@rampart/contracts';

/**
 * Kernel and network parameters (CIS Debian 12 sections 3.3 network parameters, 1.5 process
 * hardening). A check fails when the live value is wrong, or when a file would set a wrong one at
 * the next boot; without a live value (a chroot) the files decide.
 */
interface SysctlRule {
  key: string;
  accepted: string[];
  fix: string;
  level: AuditLevel;
  category: 'kernel' | 'network';
  cisSection: string;
  title: LocalizedText;
  advice: LocalizedText;
}

const net = (key: string, accepted: string[], fix: string, level: AuditLevel, title: LocalizedText, advice: LocalizedText): SysctlRule => ({ key, accepted, fix, level, category: 'network', cisSection: '3.3', title, advice });

export const sysctlRules: SysctlRule[] = [
  net('net.ipv4.ip_forward', ['0'], '0', 'warning', text('开启了 IPv4 转发', 'IPv4 forwarding is on'), text('非路由器或容器宿主机时设为 0', 'Set to 0 unless the host routes packets or runs containers')),
  net('net.ipv6.conf.all.forwarding', ['0'], '0', 'warning', text('开启了 IPv6 转发', 'IPv6 forwarding is on'), text('非路由器或容器宿主机时设为 0', 'Set to 0 unless the host routes packets or runs containers')),
  net('net.ipv4.conf.all.send_redirects', ['0'], '0', 'hint', text('会发送 ICMP 重定向', 'ICMP redirects are sent'), text('非路由器设为 0', 'Set to 0 on a host that is not a router')),
  net('net.ipv4.conf.default.send_redirects', ['0'], '0', 'hint', text('新接口会发送 ICMP 重定向', 'New interfaces send ICMP redirects'), text('非路由器设为 0', 'Set to 0 on a host that is not a router')),
  net('net.ipv4.conf.all.accept_redirects', ['0'], '0', 'warning', text('接受 ICMP 重定向', 'ICMP redirects are accepted'), text('设为 0，防止路由被篡改', 'Set to 0 so redirects cannot reroute traffic')),
  net('net.ipv4.conf.default.accept_redirects', ['0'], '0', 'warning', text('新接口接受 ICMP 重定向', 'New interfaces accept ICMP redirects'), text('设为 0', 'Set to 0')),
  net('net.ipv6.conf.all.accept_redirects', ['0'], '0', 'warning', text('接受 IPv6 重定向', 'IPv6 redirects are accepted'), text('设为 0', 'Set to 0')),
  net('net.ipv4.conf.all.secure_redirects', ['0'], '0', 'hint', text('接受网关发来的“安全”重定向', 'Redirects from gateways are accepted'), text('设为 0', 'Set to 0')),
  net('net.ipv4.conf.all.accept_source_route', ['0'], '0', 'warning', text('接受源路由数据包', 'Source-routed packets are accepted'), text('设为 0', 'Set to 0')),
  net('net.ipv4.conf.all.rp_filter', ['1'], '1', 'hint', text('未开启严格反向路径过滤', 'Strict reverse-path filtering is off'), text('设为 1，丢弃伪造源地址的数据包', 'Set to 1 to drop packets with spoofed source addresses')),
  net('net.ipv4.conf.default.rp_filter', ['1'], '1', 'hint', text('新接口未开启严格反向路径过滤', 'New interfaces lack strict reverse-path filtering'), text('设为 1', 'Set to 1')),
  net('net.ipv4.conf.all.log_martians', ['1'], '1', 'hint', text('不记录异常来源的数据包', 'Martian packets are not logged'), text('设为 1', 'Set to 1')),
  net('net.ipv4.icmp_echo_ignore_broadcasts', ['1'], '1', 'hint', text('响应广播 ping', 'Broadcast pings are answered'), text('设为 1，避免被用于 Smurf 放大', 'Set to 1 so the host cannot amplify a Smurf attack')),
  net('net.ipv4.icmp_ignore_bogus_error_responses', ['1'], '1', 'hint', text('记录伪造的 ICMP 错误', 'Bogus ICMP errors fill the log'), text('设为 1', 'Set to 1')),
  net('net.ipv4.tcp_syncookies', ['1'], '1', 'warning', text('未开启 SYN Cookie', 'SYN cookies are off'), text('设为 1，抵御 SYN 洪水', 'Set to 1 to withstand SYN floods')),
  { key: 'kernel.randomize_va_space', accepted: ['2'], fix: '2', level: 'danger', category: 'kernel', cisSection: '1.5', title: text('未完全开启地址空间随机化', 'Address space randomization is not fully on'), advice: text('设为 2', 'Set to 2') },
  { key: 'kernel.yama.ptrace_scope', accepted: ['1', '2', '3'], fix: '1', level: 'hint', category: 'kernel', cisSection: '1.5', title: text('任意进程可 ptrace 同用户进程', 'Any process may ptrace its user’s processes'), advice: text('设为 1，只允许父进程调试子进程', 'Set to 1 so only a parent may trace its children') },
  { key: 'fs.suid_dumpable', accepted: ['0'], fix: '0', level: 'hint', category: 'kernel', cisSection: '1.5', title: text('SUID 程序可产生 core 文件', 'SUID programs may dump core'), advice: text('设为 0，core 文件不泄露特权进程内存', 'Set to 0 so core files cannot leak a privileged process’s memory') },
  { key: 'kernel.kptr_restrict', accepted: ['1', '2'], fix: '2', level: 'hint', category: 'kernel', cisSection: '', title: text('内核地址对普通用户可见', 'Kernel addresses are visible to users'), advice: text('设为 2（或 1），增加内核漏洞利用难度', 'Set to 2 (or 1) to make kernel exploits harder') },
  { key: 'kernel.dmesg_restrict', accepted: ['1'], fix: '1', level: 'hint', category: 'kernel', cisSection: '', title: text('普通用户可读内核日志', 'Users can read the kernel log'), advice: text('设为 1', 'Set to 1') },
  { key: 'kernel.sysrq', accepted: ['0'], fix: '0', level: 'hint', category: 'kernel', cisSection: '', title: text('开启了 SysRq 组合键', 'The SysRq key is enabled'), advice: text('服务器设为 0', 'Set to 0 on a server') },
  { key: 'fs.protected_hardlinks', accepted: ['1'], fix: '1', level: 'warning', category: 'kernel', cisSection: '', title: text('未保护硬链接', 'Hard links are not protected'), advice: text('设为 1', 'Set to 1') },
  { key: 'fs.protected_symlinks', accepted: ['1'], fix: '1', level: 'warning', category: 'kernel', cisSection: '', title: text('未保护符号链接', 'Symbolic links are not protected'), advice: text('设为 1，防止 /tmp 符号链接攻击', 'Set to 1 to stop symlink attacks in /tmp') },
  { key: 'fs.protected_fifos', accepted: ['1', '2'], fix: '2', level: 'hint', category: 'kernel', cisSection: '', title: text('未保护粘滞目录中的 FIFO', 'FIFOs in sticky directories are not protected'), advice: text('设为 2', 'Set to 2') },
  { key: 'fs.protected_regular', accepted: ['1', '2'], fix: '2', level: 'hint', category: 'kernel', cisSection: '', title: text('未保护粘滞目录中的普通文件', 'Regular files in sticky directories are not protected'), advice: text('设为 2', 'Set to 2') },
];

export const sysctlKeys = sysctlRules.map((r) => r.key);

export const sysctlChecks: AuditCheck[] = sysctlRules.map((rule) => ({
  id: `sysctl.${rule.key}`,
  cisSection: rule.cisSection,
  category: rule.category,
  level: rule.level,
  title: rule.title,
  advice: rule.advice,
  uses: ['sysctl'],
  run: (facts) => {
    const configured = configuredSysctl(facts.sysctl, rule.key);
    const live = facts.sysctl.live?.get(rule.key);
    const expected = rule.accepted.join(' or ');
    const evidence = [];
    if (live !== undefined) evidence.push({ found: `${rule.key} = ${live}`, expected, note: 'live' });
    if (configured) evidence.push({ file: configured.file, line: configured.line, found: `${configured.key} = ${configured.value}`, expected });
    const badLive = live !== undefined && !rule.accepted.includes(live);
    const badFile = configured !== undefined && !rule.accepted.includes(configured.value);
    if (live === undefined && !configured) {
      // Not running (no /proc) and no file sets it: the kernel's default decides, which this root cannot tell.
      if (facts.sysctl.live === null) return notApplicable(`${rule.key}: no live value and no setting in the sysctl files`);
      return notApplicable(`${rule.key} does not exist in this kernel`);
    }
    return badLive || badFile ? fail(...evidence) : pass(...evidence);
  },
  fix: () => ({ kind: 'sysctl_dropin', settings: { [rule.key]: rule.fix } }),
}));
