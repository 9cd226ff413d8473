import type { AuditEvidence } from '@rampart/contracts';
import type { Facts } from '../facts/facts.ts';
import type { FileStat } from '../root-fs.ts';
import { fail, noneOf, notApplicable, pass, text, type AuditCheck } from './check.ts';
import { expectedSetIdPaths } from './debian-setid.ts';
import type { LocalizedText } from '@rampart/contracts';

/**
 * System file permissions (CIS Debian 12 section 7.1): the account databases' modes and owners,
 * and the one `find` pass over the system paths (world-writable, SUID/SGID, unowned).
 */
interface ModeRule {
  id: string;
  path: string;
  /** The widest mode accepted; any bit outside it fails. */
  maxMode: number;
  /** Accepted owning groups by name; the gid is looked up in /etc/group. */
  groups: string[];
  title: LocalizedText;
}

const databases: ModeRule[] = [
  { id: 'files.passwd', path: '/etc/passwd', maxMode: 0o644, groups: ['root'], title: text('/etc/passwd 权限或属主不当', '/etc/passwd has a wrong mode or owner') },
  { id: 'files.passwd_backup', path: '/etc/passwd-', maxMode: 0o644, groups: ['root'], title: text('/etc/passwd- 权限或属主不当', '/etc/passwd- has a wrong mode or owner') },
  { id: 'files.group', path: '/etc/group', maxMode: 0o644, groups: ['root'], title: text('/etc/group 权限或属主不当', '/etc/group has a wrong mode or owner') },
  { id: 'files.group_backup', path: '/etc/group-', maxMode: 0o644, groups: ['root'], title: text('/etc/group- 权限或属主不当', '/etc/group- has a wrong mode or owner') },
  { id: 'files.shadow', path: '/etc/shadow', maxMode: 0o640, groups: ['root', 'shadow'], title: text('/etc/shadow 权限或属主不当', '/etc/shadow has a wrong mode or owner') },
  { id: 'files.shadow_backup', path: '/etc/shadow-', maxMode: 0o640, groups: ['root', 'shadow'], title: text('/etc/shadow- 权限或属主不当', '/etc/shadow- has a wrong mode or owner') },
  { id: 'files.gshadow', path: '/etc/gshadow', maxMode: 0o640, groups: ['root', 'shadow'], title: text('/etc/gshadow 权限或属主不当', '/etc/gshadow has a wrong mode or owner') },
  { id: 'files.gshadow_backup', path: '/etc/gshadow-', maxMode: 0o640, groups: ['root', 'shadow'], title: text('/etc/gshadow- 权限或属主不当', '/etc/gshadow- has a wrong mode or owner') },
];

const octal = (mode: number) => mode.toString(8).padStart(4, '0');

/** Shared by the account databases and the cron files: mode within `maxMode`, owner root, group in `groups`. */
export function modeCheck(rule: ModeRule & { cisSection: string; category: 'files' | 'cron'; advice?: LocalizedText }): AuditCheck {
  const gidsOf = (facts: Facts) => rule.groups.map((name) => (name === 'root' ? 0 : facts.accounts?.group.find((g) => g.name === name)?.gid)).filter((g) => g !== undefined);
  return {
    id: rule.id,
    cisSection: rule.cisSection,
    category: rule.category,
    level: 'warning',
    title: rule.title,
    advice: rule.advice ?? text(`将 ${rule.path} 设为 root 所有、权限 ${octal(rule.maxMode)} 或更严`, `Make ${rule.path} owned by root with mode ${octal(rule.maxMode)} or stricter`),
    uses: ['fileStats', 'accounts'],
    run: (facts) => {
      const stat = facts.fileStats.get(rule.path) as FileStat | null;
      if (!stat) return notApplicable(`${rule.path} does not exist`);
      const evidence = { file: rule.path, found: `${octal(stat.mode)} ${stat.uid}:${stat.gid}`, expected: `${octal(rule.maxMode)} or stricter, owner 0, group ${rule.groups.join('|')}` };
      const ok = (stat.mode & ~rule.maxMode) === 0 && stat.uid === 0 && gidsOf(facts).includes(stat.gid);
      return ok ? pass(evidence) : fail(evidence);
    },
    fix: (facts) => {
      const stat = facts.fileStats.get(rule.path) as FileStat;
      const gids = gidsOf(facts);
      // Keep an accepted group (shadow stays shadow); otherwise root.
      return { kind: 'attributes', targets: [{ path: rule.path, mode: stat.mode & rule.maxMode, uid: 0, gid: gids.includes(stat.gid) ? stat.gid : 0 }] };
    },
  };
}

const scanChecks: AuditCheck[] = [
  {
    id: 'files.world_writable',
    cisSection: '7.1',
    category: 'files',
    level: 'warning',
    title: text('系统目录中存在任何人可写的文件', 'World-writable files in system paths'),
    advice: text('用 chmod o-w 去掉其他用户的写权限', 'Remove write access for others with chmod o-w'),
    uses: ['filesystem'],
    run: (facts) => noneOf(facts.filesystem.worldWritableFiles.map((f) => ({ file: f, found: 'o+w', expected: 'o-w' })), 'no world-writable file'),
  },
  {
    id: 'files.world_writable_dirs_sticky',
    cisSection: '7.1',
    category: 'files',
    level: 'warning',
    title: text('任何人可写的目录缺少粘滞位', 'World-writable directories lack the sticky bit'),
    advice: text('用 chmod +t 设置粘滞位，防止用户删除他人文件', 'Set the sticky bit with chmod +t so users cannot delete each other’s files'),
    uses: ['filesystem'],
    run: (facts) => noneOf(facts.filesystem.worldWritableDirs.map((f) => ({ file: f, found: 'o+w without +t', expected: '+t' })), 'every world-writable directory is sticky'),
  },
  {
    id: 'files.unexpected_setid',
    cisSection: '7.1',
    category: 'files',
    level: 'warning',
    title: text('存在非 Debian 默认的 SUID/SGID 程序', 'SUID/SGID programs beyond Debian’s usual set'),
    advice: text('逐个确认来源；不需要的用 chmod u-s,g-s 去掉特权位', 'Confirm where each came from; remove the bits from unneeded ones with chmod u-s,g-s'),
    uses: ['filesystem'],
    run: (facts) =>
      noneOf(
        facts.filesystem.setId.filter((f) => !expectedSetIdPaths.has(f.path)).map((f) => ({ file: f.path, found: `${octal(f.mode)} ${f.owner}`, expected: 'in Debian’s SUID/SGID list' })),
        `${facts.filesystem.setId.length} SUID/SGID files, all expected`,
      ),
  },
  {
    id: 'files.unowned',
    cisSection: '7.1',
    category: 'files',
    level: 'hint',
    title: text('存在无属主或无属组的文件', 'Files without a known owner or group'),
    advice: text('为这些文件指定有效的属主与属组，或删除残留文件', 'Give the files a valid owner and group, or remove the leftovers'),
    uses: ['filesystem'],
    run: (facts) => noneOf(facts.filesystem.unowned.map((f) => ({ file: f, found: 'unknown uid or gid' })), 'every file has a known owner'),
  },
];

const grubConfig: AuditCheck = {
  id: 'files.bootloader_config',
  cisSection: '1.4',
  category: 'files',
  level: 'hint',
  title: text('引导配置可被普通用户读取', 'The boot loader configuration is readable by users'),
  advice: text('将 /boot/grub/grub.cfg 设为 root:root 0600', 'Make /boot/grub/grub.cfg root:root 0600'),
  uses: ['fileStats'],
  run: (facts) => {
    const stat = facts.fileStats.get('/boot/grub/grub.cfg');
    if (!stat) return notApplicable('/boot/grub/grub.cfg does not exist');
    const evidence: AuditEvidence = { file: stat.path, found: `${octal(stat.mode)} ${stat.uid}:${stat.gid}`, expected: '0600 0:0' };
    return (stat.mode & 0o077) === 0 && stat.uid === 0 ? pass(evidence) : fail(evidence);
  },
  fix: () => ({ kind: 'attributes', targets: [{ path: '/boot/grub/grub.cfg', mode: 0o600, uid: 0, gid: 0 }] }),
};

export const fileChecks: AuditCheck[] = [...databases.map((rule) => modeCheck({ ...rule, cisSection: '7.1', category: 'files' })), ...scanChecks, grubConfig];
