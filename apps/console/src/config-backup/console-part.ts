import type { ConsoleConfig, ModuleKey } from '@rampart/contracts';
import { moduleKeys } from '@rampart/contracts';
import { transaction, type Db } from '../db/database.ts';
import { getModuleFlags, setModuleFlags } from '../db/modules.ts';
import { settingDefs, type SettingKey } from '../db/settings.ts';
import { sealedOpensHere } from './console-keys.ts';

/**
 * The console's part of a configuration: every setting in `settingDefs` (walked generically, so
 * the settings each area adds are carried without changes here) and the module switches.
 *
 * Choices:
 * - runtime state is left out: `protection` (temporarily off until a time — an old backup must not
 *   switch protection off) and every `*_state` key (e.g. `alert_state`, the notices already sent:
 *   an old cursor would send them again). Areas adding runtime settings: name them `*_state`.
 * - how this machine's panel is reached is left out: every `panel_*` key (port, safe entry, bound
 *   domain, HTTPS certificate and key, authorized addresses). Restoring an old or another
 *   machine's would lock the administrator out the moment it applied, and a certificate belongs
 *   to its host.
 * - counters named `*_last_id` never go back (ids are never reused): the larger value is kept.
 * - a setting missing from the file goes back to its default (the file is the whole configuration);
 *   a key this build does not know is ignored (a newer build's setting).
 * - a secret sealed with another machine's key (a file from elsewhere) does not open here: the
 *   secret at the same place in the current value is kept (or none), the rest of the setting is
 *   restored; each is counted so the answer can say so.
 */
export function carriedSetting(key: string): boolean {
  return key !== 'protection' && !key.endsWith('_state') && !key.startsWith('panel_');
}
const keys = (): SettingKey[] => (Object.keys(settingDefs) as SettingKey[]).filter(carriedSetting);

const sealedPattern = /^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]*$/;

/**
 * `value` with every sealed secret that does not open here replaced by what the current value holds
 * at the same place (when that is a sealed secret of ours), else by '' — the rest of the setting is
 * restored. Counts the secrets replaced.
 */
function keepOpenable(db: Db, value: unknown, current: unknown, dropped: { count: number }): unknown {
  if (typeof value === 'string') {
    if (!sealedPattern.test(value) || sealedOpensHere(db, value)) return value;
    dropped.count += 1;
    return typeof current === 'string' && sealedPattern.test(current) && sealedOpensHere(db, current) ? current : '';
  }
  if (Array.isArray(value)) return value.map((item, i) => keepOpenable(db, item, Array.isArray(current) ? current[i] : undefined, dropped));
  if (value !== null && typeof value === 'object') {
    const here = current !== null && typeof current === 'object' ? (current as Record<string, unknown>) : {};
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, keepOpenable(db, v, here[k], dropped)]));
  }
  return value;
}

function storedValue(db: Db, key: string): unknown {
  const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
  if (!row) return undefined;
  try {
    return JSON.parse(row.value) as unknown;
  } catch {
    return undefined;
  }
}

/** The console part as it stands: each setting as stored (valid) or its default. */
export function exportConsole(db: Db): ConsoleConfig {
  const settings: Record<string, unknown> = {};
  for (const key of keys()) {
    const def = settingDefs[key];
    const parsed = def.schema.safeParse(storedValue(db, key));
    settings[key] = parsed.success ? parsed.data : def.default;
  }
  return { settings, modules: getModuleFlags(db) };
}

export type ConsoleCheck = { ok: true; values: Map<SettingKey, unknown>; secretsDropped: number } | { ok: false; key: string; issue: string };

/** Checks every setting of the file against its schema; nothing is written. */
export function checkConsole(db: Db, part: ConsoleConfig): ConsoleCheck {
  const values = new Map<SettingKey, unknown>();
  let secretsDropped = 0;
  for (const key of keys()) {
    const def = settingDefs[key];
    if (!(key in part.settings)) {
      values.set(key, def.default);
      continue;
    }
    const parsed = def.schema.safeParse(part.settings[key]);
    if (!parsed.success) return { ok: false, key, issue: parsed.error.issues[0]?.message ?? 'bad_request' };
    const dropped = { count: 0 };
    let value = keepOpenable(db, parsed.data, storedValue(db, key), dropped);
    if (dropped.count > 0) {
      secretsDropped += dropped.count;
      // Should the setting not take the kept secrets, it stays as it is here.
      const again = def.schema.safeParse(value);
      value = again.success ? again.data : (storedValue(db, key) ?? def.default);
    }
    if (key.endsWith('_last_id') && typeof value === 'number') {
      const current = storedValue(db, key);
      if (typeof current === 'number' && current > value) value = current;
    }
    values.set(key, value);
  }
  return { ok: true, values, secretsDropped };
}

/** Writes the checked console part in one SQLite transaction. */
export function applyConsole(db: Db, values: ReadonlyMap<SettingKey, unknown>, modules: ConsoleConfig['modules']): void {
  transaction(db, () => {
    const upsert = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
    for (const [key, value] of values) upsert.run(key, JSON.stringify(value));
    const flags = getModuleFlags(db);
    for (const key of moduleKeys) {
      const status = modules[key];
      if (status !== undefined && status !== flags[key]) setModuleFlags(db, [key as ModuleKey], status);
    }
  });
}
