/**
 * Schema history of the event store. Each entry moves the schema from version i to i + 1
 * (PRAGMA user_version); entries are never edited once shipped, only appended.
 *
 * events.fold_day is the local day (yyyymmdd) of a row that simple log mode may fold repeats into,
 * NULL for rows that are never folded (full mode, admin actions, no IP). The partial unique index on
 * (fold_day, kind, ip, fold_by) is the UPSERT target; fold_by (migration 2) holds the values of the
 * kind's `foldBy` parameters (attack kind, rule, reason, site) so different attacks from one IP stay
 * apart, '' for rows never folded and for rows written before it. Row counts live in `counters`, kept in the same
 * transactions as the rows, so stats stay O(1) on millions of rows.
 */
export const migrations: readonly string[] = [
  `
  CREATE TABLE events (
    id       INTEGER PRIMARY KEY,
    time     INTEGER NOT NULL,
    kind     TEXT NOT NULL,
    module   TEXT NOT NULL,
    level    TEXT NOT NULL,
    source   TEXT NOT NULL,
    account  TEXT NOT NULL,
    ip       TEXT NOT NULL,
    params   TEXT NOT NULL,
    detail   TEXT NOT NULL,
    repeats  INTEGER NOT NULL DEFAULT 0,
    fold_day INTEGER
  ) STRICT;
  CREATE INDEX events_time ON events (time);
  CREATE INDEX events_module_time ON events (module, time);
  CREATE INDEX events_level_time ON events (level, time);
  CREATE INDEX events_ip_time ON events (ip, time);
  CREATE UNIQUE INDEX events_fold ON events (fold_day, kind, ip) WHERE fold_day IS NOT NULL;

  CREATE TABLE photos (
    id        INTEGER PRIMARY KEY,
    time      INTEGER NOT NULL,
    site      TEXT NOT NULL,
    ip        TEXT NOT NULL,
    method    TEXT NOT NULL,
    url       TEXT NOT NULL,
    headers   TEXT NOT NULL,
    post_data TEXT NOT NULL,
    kind      TEXT NOT NULL
  ) STRICT;
  CREATE INDEX photos_time ON photos (time);
  CREATE INDEX photos_ip_time ON photos (ip, time);

  CREATE TABLE notices (
    id         INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL,
    params     TEXT NOT NULL,
    dedupe_key TEXT,
    add_time   INTEGER NOT NULL,
    readed     INTEGER NOT NULL DEFAULT 0 CHECK (readed IN (0, 1))
  ) STRICT;
  CREATE UNIQUE INDEX notices_unread_dedupe ON notices (dedupe_key) WHERE dedupe_key IS NOT NULL AND readed = 0;
  CREATE INDEX notices_readed ON notices (readed);

  CREATE TABLE counters (
    name  TEXT PRIMARY KEY,
    value INTEGER NOT NULL
  ) STRICT;
  INSERT INTO counters (name, value) VALUES ('events', 0), ('photos', 0);
  `,
  `
  ALTER TABLE events ADD COLUMN fold_by TEXT NOT NULL DEFAULT '';
  DROP INDEX events_fold;
  CREATE UNIQUE INDEX events_fold ON events (fold_day, kind, ip, fold_by) WHERE fold_day IS NOT NULL;
  `,
  // Situational-awareness rollups (rollups.ts): security events counted per minute, hour and local
  // day (bucket = its start, ms) by module, kind and area, attacks per address per hour, and the
  // newest attacks. Kept in the flush's transaction, so the dashboard never scans events.
  `
  CREATE TABLE rollup_minute (bucket INTEGER NOT NULL, module TEXT NOT NULL, kind TEXT NOT NULL, area TEXT NOT NULL, attack INTEGER NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (bucket, module, kind, area)) STRICT, WITHOUT ROWID;
  CREATE TABLE rollup_hour (bucket INTEGER NOT NULL, module TEXT NOT NULL, kind TEXT NOT NULL, area TEXT NOT NULL, attack INTEGER NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (bucket, module, kind, area)) STRICT, WITHOUT ROWID;
  CREATE TABLE rollup_day (bucket INTEGER NOT NULL, module TEXT NOT NULL, kind TEXT NOT NULL, area TEXT NOT NULL, attack INTEGER NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (bucket, module, kind, area)) STRICT, WITHOUT ROWID;
  CREATE TABLE rollup_ip_hour (bucket INTEGER NOT NULL, ip TEXT NOT NULL, area TEXT NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (bucket, ip)) STRICT, WITHOUT ROWID;
  CREATE TABLE recent_attacks (id INTEGER PRIMARY KEY, time INTEGER NOT NULL, module TEXT NOT NULL, kind TEXT NOT NULL, ip TEXT NOT NULL, area TEXT NOT NULL) STRICT;
  INSERT INTO counters (name, value) VALUES ('attacks', 0);
  `,
  // Rollup back-fill (rollup-backfill.ts): events stored before the rollups existed are counted in
  // the background. Fixed here, before any live write, so no row is counted by both paths: rows with
  // id <= until_id, and (when the rollups already held live counts, so the exact upgrade point is
  // lost) older than their oldest hour. The repeats of foldable rows in that range are copied now:
  // repeats folded into them later are counted live, and must not be counted again.
  `
  CREATE TABLE meta (name TEXT PRIMARY KEY, value ANY NOT NULL) STRICT;
  INSERT INTO meta (name, value) SELECT 'rollup_backfill_until_id', coalesce(max(id), 0) FROM events;
  INSERT INTO meta (name, value) SELECT 'rollup_backfill_before', coalesce(min(bucket), 9007199254740991) FROM rollup_hour;
  INSERT INTO meta (name, value) VALUES ('rollup_backfill_cursor', 0);
  CREATE TABLE rollup_backfill_repeats (id INTEGER PRIMARY KEY, repeats INTEGER NOT NULL) STRICT;
  INSERT INTO rollup_backfill_repeats (id, repeats)
    SELECT id, repeats FROM events WHERE fold_day IS NOT NULL AND time < (SELECT value FROM meta WHERE name = 'rollup_backfill_before');
  `,
  // The keyword search's full-text index (fts.ts): trigram FTS5 over the searched columns and the
  // kind, rowids only (detail = none; columnsize = 0, as nothing is ranked), kept by triggers for
  // rows above counters.fts_pending; older rows are indexed in the background.
  `
  CREATE VIRTUAL TABLE events_fts USING fts5(account, ip, params, detail, kind, content = 'events', content_rowid = 'id', tokenize = 'trigram case_sensitive 0', detail = none, columnsize = 0);
  INSERT INTO counters (name, value) VALUES ('fts_pending', coalesce((SELECT max(id) FROM events), 0));
  CREATE TRIGGER events_fts_insert AFTER INSERT ON events WHEN new.id > (SELECT value FROM counters WHERE name = 'fts_pending') BEGIN
    INSERT INTO events_fts (rowid, account, ip, params, detail, kind) VALUES (new.id, new.account, new.ip, new.params, new.detail, new.kind);
  END;
  CREATE TRIGGER events_fts_delete AFTER DELETE ON events WHEN old.id > (SELECT value FROM counters WHERE name = 'fts_pending') BEGIN
    INSERT INTO events_fts (events_fts, rowid, account, ip, params, detail, kind) VALUES ('delete', old.id, old.account, old.ip, old.params, old.detail, old.kind);
  END;
  CREATE TRIGGER events_fts_update AFTER UPDATE OF id, account, ip, params, detail, kind ON events WHEN old.id > (SELECT value FROM counters WHERE name = 'fts_pending') BEGIN
    INSERT INTO events_fts (events_fts, rowid, account, ip, params, detail, kind) VALUES ('delete', old.id, old.account, old.ip, old.params, old.detail, old.kind);
    INSERT INTO events_fts (rowid, account, ip, params, detail, kind) VALUES (new.id, new.account, new.ip, new.params, new.detail, new.kind);
  END;
  `,
];
