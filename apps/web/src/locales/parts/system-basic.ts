import type { Texts } from '../types.ts';

/** Texts under `sys_basic.` (English); the Chinese texts below hold the same keys. */
export const systemBasicEn = {
} as const;

export const systemBasicZh: Texts<typeof systemBasicEn> = {
};
