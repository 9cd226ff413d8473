import { modeCheck } from './files.ts';
import { fail, notApplicable, pass, text, type AuditCheck } from './check.ts';

/** Job schedulers (CIS Debian 12 section 2.4): the crontab files' modes, and who may use cron and at. */
const cronPaths: [string, string, number][] = [
  ['cron.crontab', '/etc/crontab', 0o600],
  ['cron.cron_hourly', '/etc/cron.hourly', 0o700],
  ['cron.cron_daily', '/etc/cron.daily', 0o700],
  ['cron.cron_weekly', '/etc/cron.weekly', 0o700],
  ['cron.cron_monthly', '/etc/cron.monthly', 0o700],
  ['cron.cron_d', '/etc/cron.d', 0o700],
];

const allowList = (id: string, tool: 'cron' | 'at', pkg: string): AuditCheck => ({
  id,
  cisSection: '2.4',
  category: 'cron',
  level: 'hint',
  title: text(`未限制可使用 ${tool} 的用户`, `Every user may use ${tool}`),
  advice: text(`创建 /etc/${tool}.allow（root:root 0640），只列出需要的用户，并删除 /etc/${tool}.deny`, `Create /etc/${tool}.allow (root:root 0640) listing only the users who need it, and remove /etc/${tool}.deny`),
  uses: ['packages', 'fileStats'],
  run: (facts) => {
    if (!facts.packages.installed.has(pkg)) return notApplicable(`${pkg} is not installed`);
    const allow = facts.fileStats.get(`/etc/${tool}.allow`);
    return allow ? pass({ file: allow.path, found: 'exists' }) : fail({ file: `/etc/${tool}.allow`, found: 'missing', expected: 'exists' });
  },
});

export const cronChecks: AuditCheck[] = [
  ...cronPaths.map(([id, path, maxMode]) => {
    const check = modeCheck({ id, path, maxMode, groups: ['root'], cisSection: '2.4', category: 'cron', title: text(`${path} 权限或属主不当`, `${path} has a wrong mode or owner`) });
    // Without cron installed its files are not a schedule anyone reads.
    const run = check.run;
    return { ...check, uses: [...check.uses, 'packages'], run: (facts) => (facts.packages.installed.has('cron') || facts.packages.installed.has('cronie') ? run(facts) : notApplicable('cron is not installed')) } satisfies AuditCheck;
  }),
  allowList('cron.allow_list', 'cron', 'cron'),
  allowList('cron.at_allow_list', 'at', 'at'),
];
