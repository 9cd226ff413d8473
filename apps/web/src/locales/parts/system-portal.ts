import type { Texts } from '../types.ts';

/** Texts under `sys_portal.` (English); the Chinese texts below hold the same keys. */
export const systemPortalEn = {
} as const;

export const systemPortalZh: Texts<typeof systemPortalEn> = {
};
