import { statSync } from 'node:fs';
import type {
  EventInput, EventPage, EventQuery, EventRecord, EventStoreStats, NoticeInput, NoticeRecord, NoticeTarget, PhotoInput, PhotoPage, PhotoQuery, PhotoRecord,
} from '@rampart/contracts';
import { openSqlite, withTransaction } from '@rampart/sqlite';
import { openCounters } from './counters.ts';
import { eventReader, type EventFilter } from './event-query.ts';
import { eventWriter, type LogMode } from './event-writer.ts';
import { migrations } from './migrations.ts';
import { notices, type NoticeList } from './notices.ts';
import { photos } from './photos.ts';
import { ftsBackfill, startFtsBackfill } from './fts.ts';
import { purgeBefore } from './purge.ts';
import { rollupBackfill, type BackfillProgress } from './rollup-backfill.ts';
import { rollupReader, type RollupReader } from './rollup-query.ts';
import { defaultAreaOf, openRollups, type AreaOf } from './rollups.ts';

export interface EventStoreOptions {
  /** Clock (ms) for events and photos without a time, and for notices. */
  now?: () => number;
  /** Queued events are written this long after the first of them (default 100 ms)… */
  flushIntervalMs?: number;
  /** …or at once when this many are queued (default 1000). */
  maxBatch?: number;
  /** While writes fail, at most this many events wait in memory; later ones are dropped (default 100 000). */
  maxQueued?: number;
  /** simple (default) folds repeats; full keeps every row. */
  mode?: LogMode;
  /** After each flush: the rows it inserted, ids filled. Repeats folded into existing rows are not passed. */
  onStored?: (records: EventRecord[]) => void;
  /** After a change of the unread notice count. */
  onNotice?: (unread: number) => void;
  /** Errors of background flushes and of onStored (default: console.error). */
  onError?: (err: unknown) => void;
  /** The area of an attacking address for the rollups (default: `internal` for private ranges, else unknown). */
  areaOf?: AreaOf;
  /** Back-fill the rollups from events stored before them, one batch per turn of the event loop (default true; tests step it by hand). */
  backfill?: boolean;
  /** Rows per back-fill transaction (default 2000). */
  backfillBatch?: number;
  /** Index events stored before the keyword index existed in the background (default true; tests step it by hand). */
  ftsBackfill?: boolean;
}

/** Filters for an export; the time range is given separately. */
export type ExportFilter = Omit<EventFilter, 'from' | 'to'>;

export interface EventStore {
  /** Queues events (already schema-checked); returns how many were accepted. */
  append(inputs: readonly EventInput[]): number;
  /** Writes the queue now; returns how many events it took. */
  flush(): number;
  setMode(mode: LogMode): void;
  mode(): LogMode;
  /** Newest first, keyset-paged by `before`. */
  query(q: EventQuery): EventPage;
  get(id: number): EventRecord | null;
  stats(): EventStoreStats;
  /** Removes events and photos older than `time`, 10 000 rows per transaction; returns the events removed. */
  purgeBefore(time: number): number;
  /** Events in [from, to), oldest first, read in chunks; returns how many were written. */
  exportRange(from: number, to: number, writeLine: (record: EventRecord) => void, filter?: ExportFilter): number;
  /** The same as chunks, for consumers that await between them (no statement stays open). */
  exportChunks(from: number, to: number, filter?: ExportFilter, size?: number): Generator<EventRecord[]>;

  raiseNotice(input: NoticeInput): number | null;
  listNotices(offset: number, limit: number): NoticeList;
  getNotice(id: number, markRead: boolean): NoticeRecord | null;
  readNotices(target: NoticeTarget): number;
  deleteNotices(target: NoticeTarget): number;
  unreadNotices(): number;

  appendPhotos(inputs: readonly PhotoInput[]): number;
  queryPhotos(q: PhotoQuery): PhotoPage;
  getPhoto(id: number): PhotoRecord | null;
  clearPhotos(): number;
  photoCount(): number;

  /** The situational-awareness panels, read from the rollups kept as events are written. */
  readonly dynamic: RollupReader;
  /** Counting events stored before the rollups existed: runs in the background unless `backfill: false`. */
  readonly backfill: { step(): boolean; progress(): BackfillProgress };

  /** Flushes and closes the file. */
  close(): void;
}

const exportChunkSize = 5_000;

/** The same panels, each read after the queue is written (a block just appended shows at once). */
function flushedReader(reader: RollupReader, flush: () => void): RollupReader {
  const out = {} as Record<keyof RollupReader, (now: number) => unknown>;
  for (const name of Object.keys(reader) as (keyof RollupReader)[]) {
    out[name] = (now: number) => {
      flush();
      return (reader[name] as (now: number) => unknown)(now);
    };
  }
  return out as unknown as RollupReader;
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Opens (creating if needed) the event store at `path`: events, notices and request snapshots in one SQLite file. */
export function openEventStore(path: string, options: EventStoreOptions = {}): EventStore {
  const db = openSqlite(path, migrations, 'event store');
  // A 32 MB page cache; checkpoints every ~40 MB of WAL rather than SQLite's 4 MB, so a page that
  // many batches touch (the ip index under attack) is copied back once, not per batch (+30 % ingest).
  db.exec('PRAGMA cache_size = -32768; PRAGMA temp_store = MEMORY; PRAGMA wal_autocheckpoint = 10000; PRAGMA journal_size_limit = 67108864');
  const now = options.now ?? Date.now;
  const counters = openCounters(db);
  const rollups = openRollups(db, counters, options.areaOf ?? defaultAreaOf, now);
  const writer = eventWriter(db, counters, {
    now,
    flushIntervalMs: options.flushIntervalMs ?? 100,
    maxBatch: options.maxBatch ?? 1000,
    maxQueued: options.maxQueued ?? 100_000,
    mode: options.mode ?? 'simple',
    onStored: options.onStored,
    onError: options.onError ?? ((err) => console.error('event store:', err)),
    inTransaction: (batch) => rollups.add(batch),
  });
  const reader = eventReader(db);
  const noticeBox = notices(db, now, options.onNotice);
  const photoBox = photos(db, counters, now);
  const oldest = db.prepare('SELECT min(time) AS t FROM events');
  const backfill = rollupBackfill(db, rollups, options.backfillBatch);
  let stopBackfill: (() => void) | null = null;
  // One batch per turn: calls to the agent and event flushes run between batches.
  const backfillNext = (): void => {
    stopBackfill = null;
    try {
      if (backfill.step()) return;
      const next = setImmediate(backfillNext).unref();
      stopBackfill = () => clearImmediate(next);
    } catch (err) {
      (options.onError ?? console.error)(err);
      const retry = setTimeout(backfillNext, 1_000).unref();
      stopBackfill = () => clearTimeout(retry);
    }
  };
  if (options.backfill !== false && !backfill.progress().done) {
    const first = setImmediate(backfillNext).unref();
    stopBackfill = () => clearImmediate(first);
  }
  // The keyword index for events stored before it (fts.ts), likewise one batch per turn.
  const ftsIndexing = options.ftsBackfill === false ? null : startFtsBackfill(ftsBackfill(db), options.onError ?? console.error);

  /** Reads see every event appended before them. */
  function flushed<T>(fn: () => T): T {
    writer.flush();
    return fn();
  }

  function* exportChunks(from: number, to: number, filter: ExportFilter = {}, size = exportChunkSize): Generator<EventRecord[]> {
    writer.flush();
    yield* reader.chunks(from, to, filter, size);
  }

  return {
    append: (inputs) => writer.append(inputs),
    flush: () => writer.flush(),
    setMode: (mode) => writer.setMode(mode),
    mode: () => writer.mode(),
    query: (q) => flushed(() => reader.query(q)),
    get: (id) => flushed(() => reader.get(id)),
    stats: () =>
      flushed(() => {
        const t = oldest.get()?.['t'];
        return {
          events: counters.get('events'),
          photos: counters.get('photos'),
          bytes: fileSize(path) + fileSize(`${path}-wal`),
          oldest: t === null || t === undefined ? null : Number(t),
        };
      }),
    purgeBefore: (time) =>
      flushed(() => {
        const removed = purgeBefore(db, counters, time).events;
        withTransaction(db, () => rollups.pruneBefore(time));
        return removed;
      }),
    exportRange(from, to, writeLine, filter) {
      let count = 0;
      for (const chunk of exportChunks(from, to, filter)) {
        for (const record of chunk) writeLine(record);
        count += chunk.length;
      }
      return count;
    },
    exportChunks,

    raiseNotice: (input) => noticeBox.raise(input),
    listNotices: (offset, limit) => noticeBox.list(offset, limit),
    getNotice: (id, markRead) => noticeBox.get(id, markRead),
    readNotices: (target) => noticeBox.read(target),
    deleteNotices: (target) => noticeBox.remove(target),
    unreadNotices: () => noticeBox.unread(),

    appendPhotos: (inputs) => photoBox.append(inputs),
    queryPhotos: (q) => photoBox.query(q),
    getPhoto: (id) => photoBox.get(id),
    clearPhotos: () => photoBox.clear(),
    photoCount: () => photoBox.count(),

    dynamic: flushedReader(rollupReader(db, counters), () => writer.flush()),
    backfill,

    close() {
      writer.stop();
      stopBackfill?.();
      stopBackfill = null;
      ftsIndexing?.stop();
      try {
        writer.flush();
      } finally {
        db.close();
      }
    },
  };
}
