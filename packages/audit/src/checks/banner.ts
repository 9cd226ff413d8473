import { fail, notApplicable, pass, text, type AuditCheck } from './check.ts';

/** Login banners (CIS Debian 12 section 1.6): no OS details before sign-in. */
const banner = (id: string, file: string): AuditCheck => ({
  id,
  cisSection: '1.6',
  category: 'services',
  level: 'hint',
  title: text(`${file} 泄露系统版本`, `${file} reveals the system version`),
  advice: text(`在 ${file} 写入授权使用声明，去掉 \\m \\r \\s \\v 和发行版名称`, `Put an authorized-use notice in ${file} without \\m \\r \\s \\v or the distribution name`),
  uses: ['texts'],
  run: (facts) => {
    const banner = facts.texts.get(file);
    if (!banner) return notApplicable(`${file} does not exist`);
    const leak = banner.text.split('\n').findIndex((l) => /\\[mrsv]|debian|ubuntu|gnu\/linux/i.test(l));
    return leak < 0 ? pass({ file, found: 'no OS details' }) : fail({ file, line: leak + 1, found: banner.text.split('\n')[leak]?.trim(), expected: 'a notice without OS details' });
  },
});

export const bannerChecks: AuditCheck[] = [banner('banner.issue', '/etc/issue'), banner('banner.issue_net', '/etc/issue.net')];
