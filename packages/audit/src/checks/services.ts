import { isLoopback } from '../facts/sockets.ts';
import { fail, noneOf, notApplicable, pass, text, type AuditCheck } from './check.ts';

/** Services and listening ports (CIS Debian 12 sections 2.1 server services, 2.2 client services). */

/** Ports of cleartext or legacy protocols that should not face the network. */
const legacyPorts: Record<number, string> = { 21: 'ftp', 23: 'telnet', 69: 'tftp', 111: 'rpcbind', 161: 'snmp', 512: 'rexec', 513: 'rlogin', 514: 'rsh/syslog', 873: 'rsync', 2049: 'nfs' };

const legacyServers = ['telnetd', 'inetutils-telnetd', 'telnetd-ssl', 'rsh-server', 'rsh-redone-server', 'nis', 'tftpd', 'tftpd-hpa', 'atftpd', 'talkd', 'inetutils-talkd', 'xinetd', 'openbsd-inetd', 'inetutils-inetd', 'rpcbind', 'vsftpd', 'proftpd-basic', 'pure-ftpd', 'snmpd'];
const legacyClients = ['telnet', 'inetutils-telnet', 'rsh-client', 'rsh-redone-client', 'talk', 'inetutils-talk', 'ftp', 'inetutils-ftp', 'tnftp'];

export const serviceChecks: AuditCheck[] = [
  {
    id: 'services.legacy_listeners',
    cisSection: '2.1',
    category: 'services',
    level: 'warning',
    title: text('明文或过时协议的端口对外监听', 'Cleartext or legacy protocols listen on the network'),
    advice: text('停用这些服务，或只监听 127.0.0.1 并由防火墙限制来源', 'Stop these services, or bind them to 127.0.0.1 and restrict sources in the firewall'),
    uses: ['sockets'],
    run: (facts) =>
      noneOf(
        facts.sockets
          .filter((s) => legacyPorts[s.port] && !isLoopback(s.address))
          .map((s) => ({ found: `${s.protocol} ${s.address}:${s.port} ${legacyPorts[s.port]} ${s.processes.join(',')}`.trim(), expected: 'not listening, or loopback only' })),
        'no legacy protocol listens',
      ),
  },
  {
    id: 'services.exposed_listeners',
    cisSection: '2.1',
    category: 'services',
    level: 'hint',
    title: text('有服务在所有网卡上监听', 'Services listen on every interface'),
    advice: text('逐一确认这些端口确需对外；只供本机使用的服务应绑定 127.0.0.1', 'Confirm each port must face the network; bind services used only locally to 127.0.0.1'),
    uses: ['sockets'],
    run: (facts) =>
      noneOf(
        facts.sockets
          .filter((s) => !isLoopback(s.address) && !s.processes.every((p) => p === 'sshd') && !(s.protocol === 'udp' && [68, 546].includes(s.port)))
          .map((s) => ({ found: `${s.protocol} ${s.address}:${s.port} ${s.processes.join(',') || '?'}`, expected: 'needed, or bound to loopback' })),
        'only sshd faces the network',
      ),
  },
  {
    id: 'services.legacy_servers',
    cisSection: '2.1',
    category: 'services',
    level: 'warning',
    title: text('安装了过时或明文的服务端', 'Legacy or cleartext servers are installed'),
    advice: text('不需要时用 apt purge 卸载（telnetd、rsh、NIS、tftp、inetd、FTP 等）', 'Purge them with apt purge when unneeded (telnetd, rsh, NIS, tftp, inetd, FTP and the like)'),
    uses: ['packages'],
    run: (facts) => noneOf(legacyServers.filter((p) => facts.packages.installed.has(p)).map((p) => ({ found: p, expected: 'not installed' })), 'none installed'),
  },
  {
    id: 'services.legacy_clients',
    cisSection: '2.2',
    category: 'services',
    level: 'hint',
    title: text('安装了明文协议客户端', 'Cleartext protocol clients are installed'),
    advice: text('用 ssh/sftp 代替，并卸载 telnet、rsh、ftp、talk 客户端', 'Use ssh/sftp instead and remove the telnet, rsh, ftp and talk clients'),
    uses: ['packages'],
    run: (facts) => noneOf(legacyClients.filter((p) => facts.packages.installed.has(p)).map((p) => ({ found: p, expected: 'not installed' })), 'none installed'),
  },
  {
    id: 'services.compilers',
    cisSection: '',
    category: 'services',
    level: 'hint',
    title: text('服务器上装有编译器', 'Compilers are installed on the server'),
    advice: text('生产服务器不需要时卸载编译器，或限制为仅 root 可执行，增加攻击者本地编译利用代码的难度', 'Remove compilers a production server does not need, or make them root-only, so attackers cannot build exploits on the host'),
    uses: ['packages'],
    run: (facts) => {
      const found = [...facts.packages.installed].filter((p) => /^(gcc|g\+\+|clang|cpp)(-\d+)?$/.test(p) || p === 'build-essential');
      return found.length === 0 ? pass({ note: 'no compiler package' }) : fail({ found: found.sort().join(', '), expected: 'none, or root-only' });
    },
  },
  {
    id: 'services.core_dumps',
    cisSection: '1.5',
    category: 'services',
    level: 'hint',
    title: text('未限制 core 文件', 'Core dumps are not restricted'),
    advice: text('在 /etc/security/limits.conf 加入 “* hard core 0”', 'Add "* hard core 0" to /etc/security/limits.conf'),
    uses: ['texts'],
    run: (facts) => {
      const limits = facts.texts.get('/etc/security/limits.conf');
      if (!limits) return notApplicable('/etc/security/limits.conf does not exist');
      const index = limits.text.split('\n').findIndex((l) => /^\s*\*\s+hard\s+core\s+0\s*$/.test(l));
      return index >= 0 ? pass({ file: limits.path, line: index + 1, found: '* hard core 0' }) : fail({ file: limits.path, found: 'no "* hard core 0"', expected: '* hard core 0' });
    },
  },
];
