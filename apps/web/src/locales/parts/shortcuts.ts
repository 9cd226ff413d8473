import type { Texts } from '../types.ts';

/** Texts under `sys_shortcut.` (English); the Chinese texts below hold the same keys. */
export const shortcutsEn = {
} as const;

export const shortcutsZh: Texts<typeof shortcutsEn> = {
};
