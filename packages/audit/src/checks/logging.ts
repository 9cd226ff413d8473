import { fail, pass, text, type AuditCheck } from './check.ts';

/** Logging and auditing (CIS Debian 12 sections 6.1 system logging, 6.2 auditd). */
export const loggingChecks: AuditCheck[] = [
  {
    id: 'logging.persistent',
    cisSection: '6.1',
    category: 'logging',
    level: 'warning',
    title: text('日志在重启后丢失', 'Logs are lost at reboot'),
    advice: text('在 journald.conf 设 Storage=persistent，或安装 rsyslog 写入 /var/log', 'Set Storage=persistent in journald.conf, or install rsyslog to write /var/log'),
    uses: ['journald', 'packages', 'fileStats'],
    run: (facts) => {
      const storage = facts.journald.get('Journal.Storage');
      const value = storage?.value ?? 'auto';
      const journalDir = facts.fileStats.get('/var/log/journal');
      // auto keeps logs only when /var/log/journal exists (journald.conf(5)).
      const persistent = value === 'persistent' || (value === 'auto' && journalDir?.isDirectory === true);
      const evidence = { file: storage?.file ?? '/etc/systemd/journald.conf', line: storage?.line, found: `Storage=${value}${storage ? '' : ' (default)'}${value === 'auto' ? `, /var/log/journal ${journalDir ? 'exists' : 'missing'}` : ''}`, expected: 'Storage=persistent or rsyslog' };
      if (persistent) return pass(evidence);
      if (facts.packages.installed.has('rsyslog')) return pass({ ...evidence, note: 'rsyslog installed' });
      return fail(evidence);
    },
    fix: () => ({ kind: 'journald_dropin', settings: { Storage: 'persistent' } }),
  },
  {
    id: 'logging.auditd',
    cisSection: '6.2',
    category: 'logging',
    level: 'warning',
    title: text('未安装或未运行 auditd', 'auditd is not installed or not running'),
    advice: text('安装 auditd 与 audispd-plugins 并启用，记录特权操作和关键文件访问', 'Install and enable auditd and audispd-plugins to record privileged actions and access to key files'),
    uses: ['packages', 'services'],
    run: (facts) => {
      if (!facts.packages.installed.has('auditd')) return fail({ found: 'auditd not installed', expected: 'installed and running' });
      return facts.services.active.has('auditd') ? pass({ found: 'auditd installed and running' }) : fail({ found: 'auditd installed, not running', expected: 'running' });
    },
  },
  {
    id: 'logging.journald_compress',
    cisSection: '6.1',
    category: 'logging',
    level: 'hint',
    title: text('journald 未压缩大日志', 'journald does not compress large entries'),
    advice: text('保持 Compress=yes（默认）', 'Keep Compress=yes (the default)'),
    uses: ['journald'],
    run: (facts) => {
      const setting = facts.journald.get('Journal.Compress');
      if (!setting) return pass({ found: 'Compress=yes (default)' });
      const evidence = { file: setting.file, line: setting.line, found: `Compress=${setting.value}`, expected: 'Compress=yes' };
      return /^(yes|true|1|on)$/i.test(setting.value) ? pass(evidence) : fail(evidence);
    },
  },
];
