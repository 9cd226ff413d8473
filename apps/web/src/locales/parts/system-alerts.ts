import type { Texts } from '../types.ts';

/** Texts under `sys_alerts.` (English); the Chinese texts below hold the same keys. */
export const systemAlertsEn = {
} as const;

export const systemAlertsZh: Texts<typeof systemAlertsEn> = {
};
