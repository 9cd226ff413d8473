import { BackupError } from './errors.ts';
import { checkFtp, uploadFtp } from './ftp.ts';
import { statArchive } from './local-file.ts';
import { checkS3, uploadS3 } from './s3.ts';
import { checkSftp, uploadSftp } from './sftp.ts';
import { timeoutOf, type BackupOptions, type BackupTarget, type UploadResult } from './target.ts';
import { validateTarget } from './validate.ts';

/**
 * Uploads `localFile` to `<savePath>/rampart-logs/<its name>` on the target and checks that the
 * server holds all of it. Rejects with a BackupError saying which step failed and why.
 */
export async function uploadArchive(target: BackupTarget, localFile: string, options: BackupOptions = {}): Promise<UploadResult> {
  assertValid(target);
  const archive = await statArchive(localFile);
  const timeoutMs = timeoutOf(options);
  switch (target.type) {
    case 's3':
      return uploadS3(target, archive, timeoutMs);
    case 'ftp':
      return uploadFtp(target, archive, timeoutMs, options.secure === true);
    case 'sftp':
      return uploadSftp(target, archive, timeoutMs);
  }
}

/** For a "test connection" button: connects and authenticates (S3: the bucket must exist), nothing is written. */
export async function checkTarget(target: BackupTarget, options: BackupOptions = {}): Promise<void> {
  assertValid(target);
  const timeoutMs = timeoutOf(options);
  switch (target.type) {
    case 's3':
      return checkS3(target, timeoutMs);
    case 'ftp':
      return checkFtp(target, timeoutMs, options.secure === true);
    case 'sftp':
      return checkSftp(target, timeoutMs);
  }
}

/** The caller validates when the rule is saved; this catches rules stored before a check existed. */
function assertValid(target: BackupTarget): void {
  const problems = validateTarget(target);
  if (problems.length > 0) throw new BackupError('validate', `The backup target is invalid: ${problems.join(', ')}`);
}
