import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite, schemaVersion, withTransaction, type Db } from '@rampart/sqlite';

export type { Db };

const migrationsDir = join(import.meta.dirname, 'migrations');

/** Migrations are numbered SQL files, 001_… upwards without gaps; each moves user_version by one. */
export function listMigrations(): string[] {
  const files = readdirSync(migrationsDir).filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f)).sort();
  files.forEach((f, i) => {
    if (Number(f.slice(0, 3)) !== i + 1) throw new Error(`panel migration ${f} is out of sequence`);
  });
  return files.map((f) => readFileSync(join(migrationsDir, f), 'utf8'));
}

export function openDatabase(path: string): Db {
  const db = openSqlite(path, listMigrations(), 'panel');
  db.exec('PRAGMA foreign_keys = ON');
  return db;
}

export { schemaVersion };

/** Runs fn in one write transaction (BEGIN IMMEDIATE). */
export const transaction = withTransaction;
