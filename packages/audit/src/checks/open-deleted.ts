import { fail, listEvidence, notApplicable, pass, text, type AuditCheck } from './check.ts';

/**
 * Deleted files still held open (Lynis LOGG-2190): most often a log rotated away while its daemon
 * keeps writing, which fills the disk unseen and hides what it writes; sometimes a dropped payload.
 */
export const openDeletedCheck: AuditCheck = {
  id: 'logging.deleted_open_files',
  cisSection: '',
  category: 'logging',
  level: 'hint',
  title: text('进程仍打开着已删除的文件', 'Processes hold deleted files open'),
  advice: text('重启列出的进程（或令其重新打开日志）以释放这些文件；不认识的文件应先查明来源', 'Restart the listed processes (or have them reopen their logs) to release the files; find out where any unfamiliar file came from first'),
  uses: ['openDeleted'],
  run: (facts) => {
    if (facts.openDeleted === null) return notApplicable('no /proc under the audited root');
    if (facts.openDeleted.length === 0) return pass({ note: 'no process holds a deleted file open' });
    return fail(...listEvidence(facts.openDeleted.map((f) => ({ file: f.path, found: `${f.name} (pid ${f.pid}, fd ${f.fd})`, expected: 'closed' }))));
  },
};
