import { openSqlite, type Db } from '@rampart/sqlite';

/**
 * Trojan protection's state on disk (`<state>/trojan.db`): the settings (one JSON row), protected
 * directories, the custom library (rule text and hash lines, one row), trusted hashes, scans and
 * their reported files. Isolated files are the quarantine's own (quarantine.ts), not here.
 */
const migrations: readonly string[] = [
  `
  CREATE TABLE trojan_settings (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    body TEXT NOT NULL
  ) STRICT;
  CREATE TABLE trojan_dirs (
    id         INTEGER PRIMARY KEY,
    path       TEXT NOT NULL UNIQUE,
    enabled    INTEGER NOT NULL,
    remark     TEXT NOT NULL,
    site       TEXT NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE trojan_library (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    rules  TEXT NOT NULL,
    hashes TEXT NOT NULL
  ) STRICT;
  CREATE TABLE trojan_trusted (
    sha256     TEXT PRIMARY KEY,
    path       TEXT NOT NULL,
    account    TEXT NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE trojan_scans (
    id           INTEGER PRIMARY KEY,
    kind         TEXT NOT NULL,
    paths        TEXT NOT NULL,
    state        TEXT NOT NULL,
    done         INTEGER NOT NULL,
    total        INTEGER NOT NULL,
    walk_done    INTEGER NOT NULL,
    current_path TEXT NOT NULL,
    flagged      INTEGER NOT NULL,
    unscanned    INTEGER NOT NULL,
    account      TEXT NOT NULL,
    started      INTEGER NOT NULL,
    ended        INTEGER
  ) STRICT;
  CREATE TABLE trojan_results (
    id         INTEGER PRIMARY KEY,
    scan_id    INTEGER,
    path       TEXT NOT NULL,
    size       INTEGER NOT NULL,
    mtime_ms   REAL NOT NULL,
    sha256     TEXT NOT NULL,
    language   TEXT NOT NULL,
    risk       TEXT NOT NULL,
    reason     TEXT NOT NULL,
    rule       TEXT NOT NULL,
    findings   TEXT NOT NULL,
    handled    TEXT NOT NULL,
    isolate_id INTEGER,
    found      INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX trojan_results_scan ON trojan_results (scan_id, id);
  CREATE INDEX trojan_results_found ON trojan_results (found);
  `,
];

export function openTrojanDb(path: string): Db {
  return openSqlite(path, migrations, 'trojan');
}
