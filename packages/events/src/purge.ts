import { withTransaction, type Db } from '@rampart/sqlite';
import type { Counters, CounterName } from './counters.ts';

/** Rows deleted per transaction: short enough that other writers (and the flush) wait little. */
export const purgeChunk = 10_000;

function purgeTable(db: Db, counters: Counters, table: Extract<CounterName, 'events' | 'photos'>, time: number, chunk: number): number {
  const remove = db.prepare(`DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE time < ? LIMIT ?)`);
  let total = 0;
  for (;;) {
    const removed = withTransaction(db, () => {
      const n = Number(remove.run(time, chunk).changes);
      counters.add(table, -n);
      return n;
    });
    total += removed;
    if (removed < chunk) return total;
  }
}

/** Removes events and photos older than `time`, `chunk` rows per transaction; returns the events removed. */
export function purgeBefore(db: Db, counters: Counters, time: number, chunk = purgeChunk): { events: number; photos: number } {
  return { events: purgeTable(db, counters, 'events', time, chunk), photos: purgeTable(db, counters, 'photos', time, chunk) };
}
