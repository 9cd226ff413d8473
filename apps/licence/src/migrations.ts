/**
 * Schema history of the licence database. Each entry moves the schema from version i to i + 1
 * (PRAGMA user_version); entries are never edited once shipped, only appended.
 */
export const migrations: readonly string[] = [
  `
  CREATE TABLE licences (
    code            TEXT PRIMARY KEY CHECK (code = upper(code)),
    product_id      TEXT NOT NULL UNIQUE,
    created_at      INTEGER NOT NULL,
    expires_at      INTEGER NOT NULL,
    transfers_total INTEGER NOT NULL CHECK (transfers_total >= 0),
    transfers_left  INTEGER NOT NULL CHECK (transfers_left >= 0 AND transfers_left <= transfers_total),
    device_id       TEXT,
    activated_at    INTEGER,
    moved_at        INTEGER
  ) STRICT;

  CREATE TABLE activation_log (
    id        INTEGER PRIMARY KEY,
    time      INTEGER NOT NULL,
    code      TEXT,
    device_id TEXT,
    ip        TEXT NOT NULL,
    outcome   TEXT NOT NULL
  ) STRICT;
  CREATE INDEX activation_log_code ON activation_log (code, time);

  CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) STRICT;
  `,
];
