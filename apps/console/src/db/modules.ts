import { defaultModuleFlags, moduleKeys, type ModuleFlags, type ModuleKey } from '@rampart/contracts';
import type { Db } from './database.ts';

export function getModuleFlags(db: Db): ModuleFlags {
  const flags = defaultModuleFlags();
  for (const row of db.prepare('SELECT key, status FROM modules').all() as { key: string; status: number }[]) {
    if ((moduleKeys as readonly string[]).includes(row.key)) flags[row.key as ModuleKey] = row.status === 1 ? 1 : 0;
  }
  return flags;
}

export function setModuleFlags(db: Db, keys: readonly ModuleKey[], status: 0 | 1): void {
  const stmt = db.prepare('INSERT INTO modules (key, status) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET status = excluded.status');
  for (const key of keys) stmt.run(key, status);
}
