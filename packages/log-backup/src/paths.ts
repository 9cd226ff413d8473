import { posix } from 'node:path';

/** The archives never land directly in the administrator's folder but in this subfolder of it. */
export const LOG_BACKUP_SUBDIR = 'rampart-logs';

/**
 * `<savePath>/rampart-logs` for FTP and SFTP. A relative (or empty) savePath stays relative:
 * the servers resolve it against the login folder.
 */
export function remoteDir(savePath: string): string {
  return posix.join(savePath.trim() || '.', LOG_BACKUP_SUBDIR);
}

/** S3 keys have no leading slash and no folders to create. */
export function s3Key(savePath: string, fileName: string): string {
  return posix.join('/', savePath.trim(), LOG_BACKUP_SUBDIR, fileName).slice(1);
}
