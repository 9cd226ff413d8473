import type { Texts } from '../types.ts';

/** Texts under `sign_in_check.` (English); the Chinese texts below hold the same keys. */
export const signInCheckEn = {
} as const;

export const signInCheckZh: Texts<typeof signInCheckEn> = {
};
