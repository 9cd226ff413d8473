import path from 'node:path';
import type { EventInput, NoticeInput } from '@rampart/contracts';
import { uploadArchive, type BackupTarget } from '@rampart/log-backup';
import type { Archives } from './archives.ts';
import type { BackupRule, LogConfigStore } from './log-config-store.ts';

export interface BackupResult {
  id: number;
  ok: boolean;
  file: string;
  error: string;
}

export interface BackupSinks {
  event(input: EventInput): void;
  notice(input: NoticeInput): void;
}

export function backupTarget(rule: BackupRule): BackupTarget {
  return {
    type: rule.type, bucket: rule.bucket, domain: rule.domain, ip: rule.ip, port: rule.port,
    username: rule.username, password: rule.password, accessId: rule.access_id, accessSecret: rule.access_secret,
    savePath: rule.save_path,
  };
}

/** How a rule is named in events and notices: type and where it writes, never its secrets. */
export function ruleLabel(rule: BackupRule): string {
  const where = rule.type === 's3' ? `${rule.domain || rule.ip}/${rule.bucket}` : `${rule.username}@${rule.domain || rule.ip}`;
  return `${rule.type.toUpperCase()} ${where}${rule.remark ? ` (${rule.remark})` : ''}`;
}

/**
 * Uploads every archive a rule has not received yet, rule by rule in parallel, archive by archive
 * in order. A failure is recorded on the rule, logged as an event and raised as a notice; the
 * archive stays pending, so the next run (hourly) retries it.
 */
export async function runBackups(
  config: LogConfigStore,
  archives: Archives,
  sinks: BackupSinks,
  now: () => number,
  timeoutMs?: number,
): Promise<BackupResult[]> {
  const available = await archives.list();
  const perRule = config.activeRules().map(async (rule): Promise<BackupResult[]> => {
    const results: BackupResult[] = [];
    for (const archive of available) {
      if (rule.uploaded.includes(archive.file)) continue;
      const label = ruleLabel(rule);
      try {
        await uploadArchive(backupTarget(rule), path.join(archives.dir, archive.file), timeoutMs ? { timeoutMs } : {});
        await config.recordUpload(rule.id, archive.file, now(), null);
        sinks.event({ kind: 'log.backup_ok', module: 'system', level: 'info', source: 'backup', params: { file: archive.file, target: label } });
        results.push({ id: rule.id, ok: true, file: archive.file, error: '' });
      } catch (error) {
        const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
        await config.recordUpload(rule.id, archive.file, now(), reason);
        sinks.event({ kind: 'log.backup_failed', module: 'system', level: 'warning', source: 'backup', params: { file: archive.file, target: label, reason } });
        sinks.notice({ kind: 'backup_failed', params: { file: archive.file, target: label, reason }, dedupe_key: `backup_failed:${rule.id}:${archive.file}` });
        results.push({ id: rule.id, ok: false, file: archive.file, error: reason });
        // Later archives wait for this one: uploads stay in day order.
        break;
      }
    }
    // Nothing pending: the rule is up to date, which the "back up now" button reports too.
    if (results.length === 0) results.push({ id: rule.id, ok: true, file: '', error: '' });
    return results;
  });
  return (await Promise.all(perRule)).flat();
}
