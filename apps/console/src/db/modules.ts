import { defaultModuleFlags, isModuleInBuild, moduleKeys, type ModuleFlags, type ModuleKey } from '@rampart/contracts';
import type { Db } from './database.ts';

/**
 * The desired ON/OFF state of every module. A module whose engine is not in this build reads off
 * whatever was stored (an older build, a restored backup): nothing enforces it, so it is not on.
 */
export function getModuleFlags(db: Db): ModuleFlags {
  const flags = defaultModuleFlags();
  for (const row of db.prepare('SELECT key, status FROM modules').all() as { key: string; status: number }[]) {
    if (!(moduleKeys as readonly string[]).includes(row.key)) continue;
    const key = row.key as ModuleKey;
    flags[key] = row.status === 1 && isModuleInBuild(key) ? 1 : 0;
  }
  return flags;
}

export function setModuleFlags(db: Db, keys: readonly ModuleKey[], status: 0 | 1): void {
  const stmt = db.prepare('INSERT INTO modules (key, status) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET status = excluded.status');
  for (const key of keys) stmt.run(key, status);
}
