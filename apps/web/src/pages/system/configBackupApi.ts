import type { ConfigBackupView, ConfigRestoreResult } from '@rampart/contracts';
import { fetchBlob, get, post } from '../../api/http.ts';

/* The console's configuration-backup calls (/system/config/…); shapes are contracts/config-backup.ts. */

export const configBackupsKey = ['system', 'config', 'backup'] as const;

/** A restore rewrites the firewall tables and takes a backup first: it gets longer than an ordinary call. */
const restoreTimeoutMs = 120_000;

/**
 * The file as the request body: its JSON when it parses, else its text as a JSON string (the
 * server then says why it is not a configuration file, rather than the browser refusing it).
 */
export function fileBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export const fetchConfigBackups = () => get<{ list: ConfigBackupView[] }>('/system/config/backup');
export const exportConfig = () => fetchBlob('/system/config/export');
export const downloadConfigBackup = (file: string) => fetchBlob('/system/config/backup', { query: { file } });
export const makeConfigBackup = () => post<{ file: string }>('/system/config/backup');
export const deleteConfigBackup = (file: string) => post<void>('/system/config/backup/delete', undefined, { query: { file } });
export const restoreConfigBackup = (fid: string) =>
  post<ConfigRestoreResult>('/system/config/backup/restore', undefined, { query: { fid }, timeoutMs: restoreTimeoutMs });
export const undoConfigRestore = () => post<ConfigRestoreResult>('/system/config/restore', undefined, { timeoutMs: restoreTimeoutMs });
/** Refusals are shown in the import dialog, beside the file: no error modal on top of it. */
export const importConfig = (text: string) =>
  post<ConfigRestoreResult>('/system/config/import', fileBody(text), { timeoutMs: restoreTimeoutMs, errorModal: false });
export const uploadConfig = (text: string) => post<{ file: string }>('/system/config/upload', fileBody(text), { timeoutMs: restoreTimeoutMs, errorModal: false });
