import type { Texts } from '../types.ts';

/** Texts under `sys_trust.` (English); the Chinese texts below hold the same keys. */
export const systemTrustEn = {
} as const;

export const systemTrustZh: Texts<typeof systemTrustEn> = {
};
