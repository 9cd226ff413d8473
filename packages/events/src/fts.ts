import { withTransaction, type Db } from '@rampart/sqlite';
import type { EventFilter } from './event-filter.ts';

/**
 * The event log's full-text index (last migration): `events_fts`, an FTS5 table over account, ip,
 * params, detail and kind with the trigram tokenizer (substrings in any script, CJK included; case
 * folded), its content read from `events`. It keeps rowids only (detail = none): a third of the
 * size with positions, and none are needed, since the index only proposes candidate rows (those
 * holding every trigram of a word somewhere) and the LIKE condition decides.
 * Triggers keep it in step with every insert, delete (retention) and change, in the writer's own
 * transaction.
 *
 * Why trigram: the keyword is a substring (an address fragment, part of a path, a Chinese word
 * inside a sentence). unicode61 splits on punctuation and keeps a run of Chinese as one token, so
 * it finds neither; trigram finds any substring of 3+ characters. Shorter keywords (a two-character
 * Chinese word among them) are answered by the scan, newest first, stopping at the page's LIMIT.
 *
 * Rows that existed before the migration are indexed afterwards, newest first, in short
 * transactions: counters.fts_pending is the highest id not yet indexed. A row is in the index
 * exactly when its id is above it (the triggers test the same), and the index answers queries only
 * once it is 0.
 */

/** The trigram tokenizer indexes nothing shorter: such keywords are answered by the scan. */
export const ftsMinChars = 3;
/** Rows indexed per back-fill transaction: the flush waits for at most one. */
export const ftsBackfillBatch = 2_000;
/** Trigrams asked of the index per word: a few spread over it narrow as well as all of them, for less work. */
const maxTrigrams = 16;

const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;

/** Some trigrams of `text` (first and last included) ANDed, or null when it is too short. */
function trigrams(text: string): string | null {
  const chars = [...text];
  if (chars.length < ftsMinChars) return null;
  const all = [...new Set(chars.slice(0, -2).map((_, i) => chars.slice(i, i + 3).join('')))];
  const picked = all.length <= maxTrigrams ? all : Array.from({ length: maxTrigrams }, (_, i) => all[Math.round((i * (all.length - 1)) / (maxTrigrams - 1))]!);
  return `(${[...new Set(picked)].map(quoted).join(' AND ')})`;
}

/**
 * The MATCH expression proposing every row the keyword can match (its text, its panel-action words,
 * its kinds), or null when a word is too short for the index.
 */
export function ftsMatch(keyword: NonNullable<EventFilter['keyword']>): string | null {
  const groups = [keyword.text, ...(keyword.params ?? []), ...keyword.kinds].map(trigrams);
  return groups.every((g) => g !== null) ? groups.join(' OR ') : null;
}

export interface FtsBackfill {
  /** The highest id not yet indexed (0: the index is complete). */
  pending(): number;
  /** Indexes the next batch (newest first); returns the ids still pending after it. */
  step(batch?: number): number;
}

export function ftsBackfill(db: Db): FtsBackfill {
  const read = db.prepare("SELECT value FROM counters WHERE name = 'fts_pending'");
  const write = db.prepare("UPDATE counters SET value = ? WHERE name = 'fts_pending'");
  const index = db.prepare(
    'INSERT INTO events_fts (rowid, account, ip, params, detail, kind) SELECT id, account, ip, params, detail, kind FROM events WHERE id > ? AND id <= ?',
  );
  const pending = () => Number(read.get()?.['value'] ?? 0);
  return {
    pending,
    step(batch = ftsBackfillBatch) {
      return withTransaction(db, () => {
        const hi = pending();
        if (hi <= 0) return 0;
        const lo = Math.max(0, hi - batch);
        index.run(lo, hi);
        write.run(lo);
        return lo;
      });
    },
  };
}

/**
 * Runs the back-fill in the background, one batch per turn of the event loop so flushes and
 * queries go in between; `onError` gets a failed batch, retried a second later.
 */
export function startFtsBackfill(backfill: FtsBackfill, onError: (err: unknown) => void): { stop(): void } {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const next = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      try {
        if (backfill.step() > 0) next(0);
      } catch (err) {
        onError(err);
        next(1_000);
      }
    }, delayMs);
    timer.unref();
  };
  if (backfill.pending() > 0) next(0);
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
