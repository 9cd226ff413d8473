import { fail, pass, text, type AuditCheck } from './check.ts';

/** Time synchronization (CIS Debian 12 section 2.3): log times and certificate checks depend on it. */
const daemons = ['chrony', 'systemd-timesyncd', 'ntp', 'ntpsec', 'openntpd'];

export const timeChecks: AuditCheck[] = [
  {
    id: 'time.sync_active',
    cisSection: '2.3',
    category: 'time',
    level: 'warning',
    title: text('未运行时间同步服务', 'No time synchronization runs'),
    advice: text('启用 systemd-timesyncd 或安装 chrony，日志时间与证书校验依赖准确时间', 'Enable systemd-timesyncd or install chrony: log times and certificate checks depend on an accurate clock'),
    uses: ['services'],
    run: (facts) => {
      const running = daemons.filter((d) => facts.services.active.has(d));
      const how = facts.services.source === 'systemctl' ? 'active' : 'enabled';
      return running.length > 0 ? pass({ found: `${running.join(', ')} ${how}` }) : fail({ found: `none of ${daemons.join(', ')} ${how}`, expected: 'one of them' });
    },
  },
];
