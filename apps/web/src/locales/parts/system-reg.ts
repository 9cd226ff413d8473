import type { Texts } from '../types.ts';

/** Texts under `sys_reg.` (English); the Chinese texts below hold the same keys. */
export const systemRegEn = {
} as const;

export const systemRegZh: Texts<typeof systemRegEn> = {
};
