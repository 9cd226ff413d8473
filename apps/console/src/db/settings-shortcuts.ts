import { z } from 'zod';
import { maxShortcuts, shortcutActionSchema } from '@rampart/contracts';

/**
 * A shortcut as stored. Choice: the shortcuts live in one setting (a JSON list of at most 50)
 * rather than a table of their own: they are few and hand-made, and it keeps this area out of the
 * numbered migrations that several areas add at once. Only the SHA-256 of a link's token is kept.
 */
export const storedShortcutSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  action: shortcutActionSchema,
  enabled: z.boolean(),
  expires_at: z.number().int().nullable(),
  max_uses: z.number().int().min(0),
  uses: z.number().int().min(0),
  last_used_at: z.number().int().nullable(),
  last_used_ip: z.string(),
  created_at: z.number().int(),
  created_by: z.string(),
  token_hash: z.string().regex(/^[a-f0-9]{64}$/),
});
export type StoredShortcut = z.infer<typeof storedShortcutSchema>;

/** Console settings of this area (same shape as settingDefs in settings.ts, which merges them). */
export const shortcutSettingDefs = {
  shortcuts: { schema: z.array(storedShortcutSchema).max(maxShortcuts), default: [] as StoredShortcut[] },
  /** The last id given out: ids are never reused, so an old id never names a newer shortcut. */
  shortcut_last_id: { schema: z.number().int().min(0), default: 0 as number },
} as const;
