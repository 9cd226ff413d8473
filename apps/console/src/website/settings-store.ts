import { defaultWebsiteSettings, websiteSettingsSchema, type WebsiteSettings } from '@rampart/contracts';
import type { Db } from '../db/database.ts';

type Group = keyof WebsiteSettings;

/**
 * The module-wide settings groups (spec: the tabs carry no site), one JSON row each. A row that no
 * longer parses (an older shape) falls back to the defaults of its group rather than breaking the
 * page; the next save replaces it.
 */
export function readWebsiteSettings(db: Db): WebsiteSettings {
  const rows = db.prepare('SELECT tab, value FROM website_settings').all() as { tab: string; value: string }[];
  const merged: Record<string, unknown> = { ...defaultWebsiteSettings };
  for (const row of rows) {
    if (!(row.tab in defaultWebsiteSettings)) continue;
    const group = websiteSettingsSchema.shape[row.tab as Group].safeParse(JSON.parse(row.value));
    if (group.success) merged[row.tab] = group.data;
  }
  return merged as WebsiteSettings;
}

export function writeWebsiteGroup<G extends Group>(db: Db, group: G, value: WebsiteSettings[G]): void {
  db.prepare('INSERT INTO website_settings (tab, value) VALUES (?, ?) ON CONFLICT (tab) DO UPDATE SET value = excluded.value').run(group, JSON.stringify(value));
}
