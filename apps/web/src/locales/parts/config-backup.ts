import type { Texts } from '../types.ts';

/** Texts under `sys_config.` (English); the Chinese texts below hold the same keys. */
export const configBackupEn = {
} as const;

export const configBackupZh: Texts<typeof configBackupEn> = {
};
