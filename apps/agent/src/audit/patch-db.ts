import { openSqlite, type Db } from '@rampart/sqlite';

/**
 * The patch tab's state on disk (`<state>/audit-patch.db`): one JSON row each for the settings, the
 * last check, the last download or install, and the list with every package's status.
 */
const migrations: readonly string[] = [
  `
  CREATE TABLE patch_state (
    key  TEXT PRIMARY KEY,
    body TEXT NOT NULL
  ) STRICT;
  `,
];

export function openPatchDb(path: string): Db {
  return openSqlite(path, migrations, 'audit-patch');
}

export function readState<T>(db: Db, key: string, fallback: T): T {
  const row = db.prepare('SELECT body FROM patch_state WHERE key = ?').get(key);
  return row ? (JSON.parse(String(row['body'])) as T) : fallback;
}

export function writeState(db: Db, key: string, value: unknown): void {
  db.prepare('INSERT INTO patch_state (key, body) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET body = excluded.body').run(key, JSON.stringify(value));
}
