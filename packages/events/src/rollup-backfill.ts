import { withTransaction, type Db } from '@rampart/sqlite';
import type { RollupEvent, Rollups } from './rollups.ts';

/** Where the back-fill stands (figures from the meta table; `done` once every old row is counted). */
export interface BackfillProgress {
  /** The last event id counted (ids ascend); the next batch starts after it. */
  cursor: number;
  /** The last id to count: rows above it were counted as they were written. */
  untilId: number;
  done: boolean;
}

export interface RollupBackfill {
  /** Counts the next batch of old rows in one transaction; returns true when nothing is left. */
  step(): boolean;
  progress(): BackfillProgress;
}

/** Rows per transaction: ~100 ms each on a loaded 2-core machine (bench/dynamic.ts), so the agent's calls and event writes wait at most that long. */
export const backfillBatch = 2_000;

/**
 * Counts the events stored before the rollups existed (range fixed by the migration that made the meta table:
 * ids up to `rollup_backfill_until_id`, older than `rollup_backfill_before`). Each batch adds its
 * rows and moves the cursor in one transaction, so a stop between batches resumes where it was and
 * nothing is counted twice. A folded row counts as its 1 + repeats as copied at the upgrade, at the
 * row's time (its first occurrence): later repeats folded into it were counted live.
 */
export function rollupBackfill(db: Db, rollups: Rollups, batch = backfillBatch): RollupBackfill {
  const getMeta = db.prepare('SELECT value FROM meta WHERE name = ?');
  const setMeta = db.prepare('UPDATE meta SET value = ? WHERE name = ?');
  const meta = (name: string) => Number(getMeta.get(name)?.['value'] ?? 0);
  const untilId = meta('rollup_backfill_until_id');
  const before = meta('rollup_backfill_before');
  const rows = db.prepare(
    `SELECT e.id, e.time, e.kind, e.module, e.ip, coalesce(r.repeats, e.repeats) AS repeats
     FROM events e LEFT JOIN rollup_backfill_repeats r ON r.id = e.id
     WHERE e.id > ? AND e.id <= ? ORDER BY e.id LIMIT ?`,
  );
  const dropCopies = db.prepare('DELETE FROM rollup_backfill_repeats WHERE id <= ?');
  let cursor = meta('rollup_backfill_cursor');

  return {
    step() {
      if (cursor >= untilId) return true;
      cursor = withTransaction(db, () => {
        const found = rows.all(cursor, untilId, batch);
        const events: RollupEvent[] = [];
        for (const r of found) {
          const time = Number(r['time']);
          if (time >= before) continue;
          events.push({ time, kind: String(r['kind']), module: String(r['module']), ip: String(r['ip']), copies: 1 + Number(r['repeats']) });
        }
        rollups.addOld(events);
        // No row left below untilId (purged): the range is finished.
        const last = found.length < batch ? untilId : Number(found[found.length - 1]!['id']);
        setMeta.run(last, 'rollup_backfill_cursor');
        dropCopies.run(last);
        return last;
      });
      return cursor >= untilId;
    },
    progress: () => ({ cursor, untilId, done: cursor >= untilId }),
  };
}
