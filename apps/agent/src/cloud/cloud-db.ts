import { openSqlite, type Db } from '@rampart/sqlite';

/**
 * Cloud protection's state on disk (`<state>/cloud.db`): pinned public keys, installed feeds (the
 * signed netsets as they arrived, so a restart rebuilds the kernel set without a fetch) and the
 * settings (one JSON row: the administrator's own ranges and the addresses they worked from).
 */
const migrations: readonly string[] = [
  `
  CREATE TABLE cloud_keys (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    public_key TEXT NOT NULL UNIQUE,
    key_id     TEXT NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE cloud_feeds (
    id               INTEGER PRIMARY KEY,
    feed_id          TEXT NOT NULL UNIQUE,
    name             TEXT NOT NULL,
    source           TEXT NOT NULL,
    licence          TEXT NOT NULL,
    version          INTEGER NOT NULL,
    date             TEXT NOT NULL,
    expires          TEXT NOT NULL,
    key_id           TEXT NOT NULL,
    url              TEXT,
    interval_minutes INTEGER,
    enabled          INTEGER NOT NULL,
    netset_v4        TEXT NOT NULL,
    netset_v6        TEXT NOT NULL,
    entries_v4       INTEGER NOT NULL,
    entries_v6       INTEGER NOT NULL,
    hits             INTEGER NOT NULL DEFAULT 0,
    last_update      INTEGER NOT NULL,
    last_check       INTEGER,
    last_error       TEXT,
    last_detail      TEXT NOT NULL DEFAULT ''
  ) STRICT;
  CREATE TABLE cloud_settings (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    body TEXT NOT NULL
  ) STRICT;
  `,
];

export function openCloudDb(path: string): Db {
  return openSqlite(path, migrations, 'cloud');
}
