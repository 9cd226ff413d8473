export { uploadArchive, checkTarget } from './backup.ts';
export { validateTarget, type TargetProblem } from './validate.ts';
export { BackupError, type BackupStep } from './errors.ts';
export { LOG_BACKUP_SUBDIR } from './paths.ts';
export { DEFAULT_TIMEOUT_MS, type BackupTarget, type BackupOptions, type UploadResult } from './target.ts';
