import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

export type Db = DatabaseSync;
export { schemaVersion };

/** How long a writer waits for another process (a CLI, a second daemon) to release the file. */
const busyTimeoutMs = 5_000;

/**
 * Opens (creating if needed) the SQLite file at `path` in WAL mode and brings its schema up to date.
 * `migrations[i]` moves the schema from version i to i + 1 (PRAGMA user_version); entries are
 * only ever appended. `name` appears in errors.
 */
export function openSqlite(path: string, migrations: readonly string[], name: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path, { timeout: busyTimeoutMs });
  try {
    enableWal(db);
    db.exec('PRAGMA synchronous = NORMAL');
    migrate(db, migrations, name);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

function isBusy(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'errcode' in err && (Number(err.errcode) & 0xff) === 5; // SQLITE_BUSY
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * WAL lets the CLI read and write while a daemon holds the file open.
 * Switching a fresh file to WAL needs an exclusive lock and SQLite answers SQLITE_BUSY at once,
 * without its busy handler, when another process holds the file (two processes starting together):
 * so retry here until the busy timeout.
 */
function enableWal(db: Db): void {
  const deadline = Date.now() + busyTimeoutMs;
  for (;;) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (err) {
      if (!isBusy(err) || Date.now() >= deadline) throw err;
      sleepSync(10 + Math.random() * 20);
    }
  }
}

function schemaVersion(db: Db): number {
  const row = db.prepare('PRAGMA user_version').get();
  return Number(row?.['user_version'] ?? 0);
}

function migrate(db: Db, migrations: readonly string[], name: string): void {
  if (schemaVersion(db) > migrations.length) {
    throw new Error(`${name} database schema version ${schemaVersion(db)} is newer than this program (${migrations.length})`);
  }
  while (schemaVersion(db) < migrations.length) {
    // Re-read the version inside the write lock: another process may have migrated meanwhile.
    withTransaction(db, () => {
      const version = schemaVersion(db);
      const step = migrations[version];
      if (step === undefined) return;
      try {
        db.exec(step);
      } catch (err) {
        throw new Error(`${name} database migration ${version + 1} failed: ${(err as Error).message}`, { cause: err });
      }
      db.exec(`PRAGMA user_version = ${version + 1}`);
    });
  }
}

/**
 * Runs `fn` inside BEGIN IMMEDIATE … COMMIT: the write lock is taken up front, so a
 * read-decide-write sequence cannot interleave with another connection's.
 */
export function withTransaction<T>(db: Db, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (err) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw err;
  }
}
