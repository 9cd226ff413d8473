import type { Texts } from '../types.ts';

/** Texts under `sys_user.` (English); the Chinese texts below hold the same keys. */
export const systemUsersEn = {
} as const;

export const systemUsersZh: Texts<typeof systemUsersEn> = {
};
