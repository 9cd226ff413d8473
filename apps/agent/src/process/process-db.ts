import { openSqlite, type Db } from '@rampart/sqlite';

/**
 * Process protection's rules on disk (`<state>/process.db`). The executable pattern and the switch
 * are columns (listed and searched); the rest of a rule (network, file access rules, whitelist) is
 * one JSON document, read and written whole.
 */
const migrations: readonly string[] = [
  `
  CREATE TABLE process_rules (
    id         INTEGER PRIMARY KEY,
    enabled    INTEGER NOT NULL,
    process    TEXT NOT NULL,
    body       TEXT NOT NULL,
    remark     TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;
  `,
];

export function openProcessDb(path: string): Db {
  return openSqlite(path, migrations, 'process');
}
