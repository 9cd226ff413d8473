import { openSqlite, type Db } from '@rampart/sqlite';
import type { PerformancePoint } from '@rampart/contracts';

/**
 * Host performance history on disk (`<state>/performance.db`): per-minute averages kept 24 h and
 * per-hour averages kept 7 days, so the 24 h and 7 d charts survive an agent restart. The last hour
 * at 10 s lives only in memory (performance-history.ts).
 */
const migrations: readonly string[] = [
  `
  CREATE TABLE perf_minute (at INTEGER PRIMARY KEY, cpu REAL NOT NULL, memory REAL NOT NULL, load REAL NOT NULL, rx REAL NOT NULL, tx REAL NOT NULL, disk REAL NOT NULL) STRICT;
  CREATE TABLE perf_hour   (at INTEGER PRIMARY KEY, cpu REAL NOT NULL, memory REAL NOT NULL, load REAL NOT NULL, rx REAL NOT NULL, tx REAL NOT NULL, disk REAL NOT NULL) STRICT;
  `,
];

export type PerfTable = 'perf_minute' | 'perf_hour';

export function openPerformanceDb(path: string): Db {
  return openSqlite(path, migrations, 'performance');
}

const columns = 'at, cpu, memory, load, rx, tx, disk';

export function upsertPoint(db: Db, table: PerfTable, p: PerformancePoint): void {
  db.prepare(`INSERT OR REPLACE INTO ${table} (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?)`).run(p.at, p.cpu, p.memory, p.load, p.rx, p.tx, p.disk);
}

/** The hour starting at `hourStart`, as the average of its minutes so far. */
export function rollUpHour(db: Db, hourStart: number): void {
  db.prepare(
    `INSERT OR REPLACE INTO perf_hour (${columns})
     SELECT ?, AVG(cpu), AVG(memory), AVG(load), AVG(rx), AVG(tx), AVG(disk) FROM perf_minute WHERE at >= ? AND at < ? HAVING COUNT(*) > 0`,
  ).run(hourStart, hourStart, hourStart + 3_600_000);
}

export function prune(db: Db, table: PerfTable, before: number): void {
  db.prepare(`DELETE FROM ${table} WHERE at < ?`).run(before);
}

export function pointsSince(db: Db, table: PerfTable, since: number): PerformancePoint[] {
  return db.prepare(`SELECT ${columns} FROM ${table} WHERE at >= ? ORDER BY at`).all(since).map((row) => ({
    at: Number(row['at']),
    cpu: Number(row['cpu']),
    memory: Number(row['memory']),
    load: Number(row['load']),
    rx: Number(row['rx']),
    tx: Number(row['tx']),
    disk: Number(row['disk']),
  }));
}
