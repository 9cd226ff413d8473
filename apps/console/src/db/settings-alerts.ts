import { z } from 'zod';
import { alertQueuedSchema, alertSettingsBaseSchema, defaultAlertSettings, type AlertQueued, type AlertSettingsInput } from '@rampart/contracts';

/**
 * The alert settings as kept: every secret field of `settings` is blank and the secrets sit sealed
 * in `sealed` (security/secret-box.ts). The WeCom webhook is kept without its key.
 */
export const alertSealedSchema = z.object({
  smtp_password: z.string(),
  aliyun_secret: z.string(),
  tencent_secret: z.string(),
  http_header_value: z.string(),
  wecom_key: z.string(),
});
export type AlertSealed = z.infer<typeof alertSealedSchema>;
export const noSealedSecrets: AlertSealed = { smtp_password: '', aliyun_secret: '', tencent_secret: '', http_header_value: '', wecom_key: '' };

/** Delivery state: which notices were seen, the queue of one, when the last send went out. */
export const alertStateSchema = z.object({
  /** Highest notice id handled; null until the first look (older notices are never sent). */
  cursor: z.number().int().nullable(),
  waiting: alertQueuedSchema.nullable(),
  last_sent_at: z.number().int().nullable(),
});

/** Console settings of this area (same shape as settingDefs in settings.ts, which merges them). */
export const alertSettingDefs = {
  alerts: {
    schema: z.object({ settings: alertSettingsBaseSchema, sealed: alertSealedSchema }),
    default: { settings: defaultAlertSettings, sealed: noSealedSecrets } as { settings: AlertSettingsInput; sealed: AlertSealed },
  },
  alert_state: {
    schema: alertStateSchema,
    default: { cursor: null, waiting: null, last_sent_at: null } as { cursor: number | null; waiting: AlertQueued | null; last_sent_at: number | null },
  },
} as const;
