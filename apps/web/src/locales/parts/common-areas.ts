import type { Texts } from '../types.ts';

/** Texts under `sys_areas.` (English); the Chinese texts below hold the same keys. */
export const commonAreasEn = {
} as const;

export const commonAreasZh: Texts<typeof commonAreasEn> = {
};
