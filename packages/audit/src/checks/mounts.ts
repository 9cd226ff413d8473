import { mountOf } from '../facts/mounts.ts';
import { fail, notApplicable, pass, text, type AuditCheck } from './check.ts';

/** Temporary file systems (CIS Debian 12 section 1.1.2): where attackers drop and run their tools. */
const required = ['nodev', 'nosuid', 'noexec'];

const optionsCheck = (id: string, mountPoint: string, separateIsOptional: boolean): AuditCheck => ({
  id,
  cisSection: '1.1.2',
  category: 'mounts',
  level: 'warning',
  title: text(`${mountPoint} 未以 nodev,nosuid,noexec 挂载`, `${mountPoint} is not mounted nodev,nosuid,noexec`),
  advice: text(`在 /etc/fstab 中为 ${mountPoint} 加上 nodev,nosuid,noexec 并重新挂载`, `Add nodev,nosuid,noexec to ${mountPoint} in /etc/fstab and remount it`),
  uses: ['mounts'],
  run: (facts) => {
    const entry = mountOf(facts.mounts, mountPoint);
    if (!entry) return separateIsOptional ? notApplicable(`${mountPoint} is not a separate mount (${facts.mounts.source})`) : fail({ file: facts.mounts.source, found: `${mountPoint} not mounted`, expected: required.join(',') });
    const missing = required.filter((o) => !entry.options.includes(o));
    const evidence = { file: facts.mounts.source, line: entry.line, found: `${mountPoint} ${entry.fsType} ${entry.options.join(',')}`, expected: required.join(',') };
    return missing.length === 0 ? pass(evidence) : fail({ ...evidence, note: `missing ${missing.join(',')}` });
  },
});

export const mountChecks: AuditCheck[] = [
  {
    id: 'mounts.tmp_partition',
    cisSection: '1.1.2',
    category: 'mounts',
    level: 'hint',
    title: text('/tmp 不是独立的文件系统', '/tmp is not a separate file system'),
    advice: text('用 tmpfs 或独立分区挂载 /tmp（systemctl enable tmp.mount），才能限制其挂载选项', 'Mount /tmp as tmpfs or its own partition (systemctl enable tmp.mount) so its options can be restricted'),
    uses: ['mounts'],
    run: (facts) => {
      const entry = mountOf(facts.mounts, '/tmp');
      return entry ? pass({ file: facts.mounts.source, line: entry.line, found: `/tmp ${entry.fsType}` }) : fail({ file: facts.mounts.source, found: '/tmp on the root file system', expected: 'a separate mount' });
    },
  },
  optionsCheck('mounts.tmp_options', '/tmp', true),
  optionsCheck('mounts.dev_shm_options', '/dev/shm', true),
];
