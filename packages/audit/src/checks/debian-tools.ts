import { fail, pass, text, type AuditCheck } from './check.ts';

/**
 * Debian helper packages Lynis suggests (DEB-0280, DEB-0831): each closes a gap the base system
 * leaves open. Judged from dpkg's status file, so they read any root.
 */
const installed = (id: string, pkg: string, title: [string, string], advice: [string, string]): AuditCheck => ({
  id,
  cisSection: '',
  category: 'packages',
  level: 'hint',
  title: text(...title),
  advice: text(...advice),
  uses: ['packages'],
  run: (facts) => (facts.packages.installed.has(pkg) ? pass({ file: '/var/lib/dpkg/status', found: `${pkg} installed` }) : fail({ file: '/var/lib/dpkg/status', found: `${pkg} not installed`, expected: `${pkg} installed` })),
});

export const debianToolChecks: AuditCheck[] = [
  installed(
    'packages.libpam_tmpdir',
    'libpam-tmpdir',
    ['用户共用 /tmp 作为临时目录', 'Users share /tmp as their temporary directory'],
    // Why it matters: programs writing predictable names in a shared /tmp invite symlink races.
    ['安装 libpam-tmpdir，登录时为每个用户设置私有的 $TMPDIR（/tmp/user/<uid>）', 'Install libpam-tmpdir so each login gets a private $TMPDIR (/tmp/user/<uid>)'],
  ),
  installed(
    'packages.needrestart',
    'needrestart',
    ['升级后不提示重启仍在使用旧库的服务', 'Services still running old libraries after an upgrade go unnoticed'],
    // A patched library only protects the services restarted after it was installed.
    ['安装 needrestart，升级后它会列出并重启仍在使用旧库的服务', 'Install needrestart: after each upgrade it lists and restarts the services still using old libraries'],
  ),
];
