import { z } from 'zod';
import type { Db } from './database.ts';
import { portalSettingDefs } from './settings-portal.ts';
import { alertSettingDefs } from './settings-alerts.ts';
import { signInCheckSettingDefs } from './settings-sign-in-check.ts';
import { shortcutSettingDefs } from './settings-shortcuts.ts';
import { trustSettingDefs } from './settings-trust.ts';
import { wizardSettingDefs } from './settings-wizard.ts';
import { dynamicSettingDefs } from './settings-dynamic.ts';

/**
 * Settings this build reads, each with its schema and default. A stored value that no longer
 * parses falls back to the default rather than breaking the console.
 */
export const settingDefs = {
  server_alias: { schema: z.string().max(64), default: '' as string },
  /** Minutes; 0 = sessions never expire. */
  session_timeout: { schema: z.number().int().min(0).max(525600), default: 120 as number },
  /** Failed sign-ins per IP per day before lock-out; 0 = no limit. */
  login_error_count: { schema: z.number().int().min(0).max(1000), default: 5 as number },
  login_check_mode: { schema: z.enum(['off', 'loose', 'strict']), default: 'off' as 'off' | 'loose' | 'strict' },
  /** Minutes a temporary disable lasts (basic tab). The protection state itself is the agent's (protection.get). */
  temp_minutes: { schema: z.number().int().min(1).max(525_600), default: 720 as number },
  /** Help link in the header; the console serves its own manual at /help. */
  help_url: { schema: z.string().max(512), default: '/help' as string },
  ...portalSettingDefs,
  ...alertSettingDefs,
  ...signInCheckSettingDefs,
  ...shortcutSettingDefs,
  ...trustSettingDefs,
  ...wizardSettingDefs,
  ...dynamicSettingDefs,
} as const;

export type SettingKey = keyof typeof settingDefs;
export type SettingValue<K extends SettingKey> = (typeof settingDefs)[K]['default'];

export function getSetting<K extends SettingKey>(db: Db, key: K): SettingValue<K> {
  const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
  const def = settingDefs[key];
  if (!row) return def.default;
  try {
    const parsed = def.schema.safeParse(JSON.parse(row.value));
    return (parsed.success ? parsed.data : def.default) as SettingValue<K>;
  } catch {
    return def.default;
  }
}

export function setSetting<K extends SettingKey>(db: Db, key: K, value: SettingValue<K>): void {
  settingDefs[key].schema.parse(value);
  db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value')
    .run(key, JSON.stringify(value));
}
