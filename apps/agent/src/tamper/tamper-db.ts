import { openSqlite, type Db } from '@rampart/sqlite';

/**
 * Tamper protection's desired state on disk (`<state>/tamper.db`): file rules and naming rules.
 * The guard's tables are rebuilt from it at every start; lists are JSON arrays of text.
 */
const migrations: readonly string[] = [
  `
  CREATE TABLE tamper_rules (
    id         INTEGER PRIMARY KEY,
    enabled    INTEGER NOT NULL,
    path       TEXT NOT NULL,
    sub_path   TEXT NOT NULL,
    process    TEXT NOT NULL,
    exempt     TEXT NOT NULL,
    level      INTEGER NOT NULL,
    ops        TEXT NOT NULL,
    notify     INTEGER NOT NULL,
    remark     TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX tamper_rules_level ON tamper_rules (level, id);

  CREATE TABLE naming_rules (
    id             INTEGER PRIMARY KEY,
    enabled        INTEGER NOT NULL,
    dir            TEXT NOT NULL,
    deny_dirs      TEXT NOT NULL,
    deny_files     TEXT NOT NULL,
    deny_malformed INTEGER NOT NULL,
    notify         INTEGER NOT NULL,
    remark         TEXT NOT NULL,
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
  ) STRICT;
  `,
];

export function openTamperDb(path: string): Db {
  return openSqlite(path, migrations, 'tamper');
}
