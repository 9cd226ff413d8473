import { fail, listEvidence, noneOf, pass, text, type AuditCheck } from './check.ts';

/** Package integrity and pending updates (CIS Debian 12 section 1.2 package management). */
export const packageChecks: AuditCheck[] = [
  {
    id: 'packages.integrity',
    cisSection: '',
    category: 'packages',
    level: 'danger',
    title: text('软件包文件被修改', 'Files of installed packages were changed'),
    advice: text('逐个核对被改动的程序文件（dpkg -S 查所属包，apt install --reinstall 恢复）；非配置文件的改动可能是入侵痕迹', 'Check each changed file (dpkg -S names its package, apt install --reinstall restores it); changes outside configuration files may be an intrusion'),
    uses: ['dpkgVerify'],
    run: (facts) =>
      noneOf(
        // Changed conffiles are the administrator's edits; a changed checksum of anything else is not.
        facts.dpkgVerify.filter((f) => !f.conffile && f.flags[2] === '5').map((f) => ({ file: f.path, found: f.flags, expected: 'checksum as packaged' })),
        `${facts.dpkgVerify.filter((f) => f.conffile).length} changed configuration files (expected edits), no changed program file`,
      ),
  },
  {
    id: 'packages.missing_files',
    cisSection: '',
    category: 'packages',
    level: 'hint',
    title: text('软件包文件缺失', 'Files of installed packages are missing'),
    advice: text('用 apt install --reinstall 恢复缺失文件所属的包', 'Reinstall the packages the missing files belong to with apt install --reinstall'),
    uses: ['dpkgVerify'],
    run: (facts) => noneOf(facts.dpkgVerify.filter((f) => f.flags === 'missing' && !f.conffile).map((f) => ({ file: f.path, found: 'missing', expected: 'present' })), 'no packaged file is missing'),
  },
  {
    id: 'packages.residual_config',
    cisSection: '',
    category: 'packages',
    level: 'hint',
    title: text('已卸载软件包的配置残留', 'Removed packages left their configuration'),
    advice: text('用 apt purge 清除这些包的残留配置', 'Purge the leftovers with apt purge'),
    uses: ['packages'],
    run: (facts) => noneOf(facts.packages.residualConfig.map((p) => ({ found: p, expected: 'purged' })), 'no residual configuration'),
  },
  {
    id: 'packages.unattended_upgrades',
    cisSection: '1.2',
    category: 'updates',
    level: 'hint',
    title: text('未启用自动安全更新', 'Security updates are not installed automatically'),
    advice: text('安装并启用 unattended-upgrades，或使用本软件的补丁自动更新', 'Install and enable unattended-upgrades, or use this console’s automatic patch updates'),
    uses: ['packages'],
    run: (facts) => (facts.packages.installed.has('unattended-upgrades') ? pass({ found: 'unattended-upgrades installed' }) : fail({ found: 'unattended-upgrades not installed', expected: 'installed' })),
  },
  {
    id: 'updates.security_pending',
    cisSection: '1.2',
    category: 'updates',
    level: 'danger',
    title: text('有未安装的安全更新', 'Security updates are waiting'),
    advice: text('在补丁管理中安装这些更新（来源 Debian-Security）；先 apt update 刷新列表', 'Install these updates (origin Debian-Security) from patch management; refresh the lists with apt update first'),
    uses: ['upgrades'],
    run: (facts) => noneOf(listEvidence(facts.upgrades.filter((u) => u.security).map((u) => ({ found: `${u.name} ${u.from} → ${u.to}`, expected: 'installed' }))), 'no security update pending (as of the last apt update)'),
  },
  {
    id: 'updates.pending',
    cisSection: '1.2',
    category: 'updates',
    level: 'hint',
    title: text('有未安装的软件更新', 'Package updates are waiting'),
    advice: text('在维护时段安装这些更新', 'Install these updates in a maintenance window'),
    uses: ['upgrades'],
    run: (facts) => {
      const rest = facts.upgrades.filter((u) => !u.security);
      return rest.length === 0 ? pass({ note: 'no other update pending' }) : fail({ found: `${rest.length} packages`, note: rest.slice(0, 20).map((u) => u.name).join(', ') });
    },
  },
];
