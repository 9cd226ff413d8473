import type { BackupTarget } from '../../src/index.ts';

/** A target with every field empty but the type, overridden by `fields`. */
export function target(type: BackupTarget['type'], fields: Partial<BackupTarget> = {}): BackupTarget {
  return { type, bucket: '', domain: '', ip: '', port: 0, username: '', password: '', accessId: '', accessSecret: '', savePath: '', ...fields };
}
