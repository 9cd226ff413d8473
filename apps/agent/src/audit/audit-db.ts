import { openSqlite, type Db } from '@rampart/sqlite';

/**
 * The security audit's runs on disk (`<state>/audit.db`): the last 20 runs with their results, and
 * the user and process findings each run saw, and the last apply or revert of each reinforcement item. What can be reverted is the engine's journal
 * (`<state>/audit-reinforce-journal.json`), not this file.
 */
const migrations: readonly string[] = [
  `
  CREATE TABLE audit_runs (
    id              INTEGER PRIMARY KEY,
    status          TEXT NOT NULL,
    account         TEXT NOT NULL,
    started_at      INTEGER NOT NULL,
    finished_at     INTEGER,
    duration_ms     INTEGER,
    score           INTEGER,
    counts          TEXT,
    failed_by_level TEXT,
    error           TEXT
  ) STRICT;
  CREATE TABLE audit_results (
    run_id   INTEGER NOT NULL,
    seq      INTEGER NOT NULL,
    check_id TEXT NOT NULL,
    category TEXT NOT NULL,
    level    TEXT NOT NULL,
    outcome  TEXT NOT NULL,
    fixable  INTEGER NOT NULL,
    evidence TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
  ) STRICT;
  CREATE INDEX audit_results_filter ON audit_results (run_id, level, outcome, seq);
  CREATE TABLE reinforce_last (
    check_id TEXT PRIMARY KEY,
    result   TEXT NOT NULL,
    at       INTEGER NOT NULL
  ) STRICT;
  `,
  // The user and process findings as the run saw them (JSON, auditInventorySnapshotSchema); NULL for runs before this.
  `ALTER TABLE audit_runs ADD COLUMN inventory TEXT;`,
];

export function openAuditDb(path: string): Db {
  return openSqlite(path, migrations, 'audit');
}
