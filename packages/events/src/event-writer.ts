import type { EventInput, EventParams, EventRecord, LogSettings } from '@rampart/contracts';
import { withTransaction, type Db } from '@rampart/sqlite';
import type { Counters } from './counters.ts';
import { foldBy, foldKey, isFoldable, localDayCounter } from './fold.ts';

export type LogMode = LogSettings['mode'];

export interface EventWriterOptions {
  now: () => number;
  flushIntervalMs: number;
  maxBatch: number;
  maxQueued: number;
  mode: LogMode;
  onStored: ((records: EventRecord[]) => void) | undefined;
  onError: (err: unknown) => void;
  /** Called with each batch inside its write transaction (the situational-awareness rollups). */
  inTransaction?: (batch: readonly Queued[]) => void;
}

export interface EventWriter {
  append(inputs: readonly EventInput[]): number;
  flush(): number;
  setMode(mode: LogMode): void;
  mode(): LogMode;
  pending(): number;
  /** Events refused because the queue was full (writes failing): since open. */
  dropped(): number;
  stop(): void;
}

/** An event as queued: defaults filled, no id yet. */
type Queued = Omit<EventRecord, 'id' | 'repeats'>;

/** A row to write: `copies` queued events of one fold key (1 when not folded). */
interface Pending {
  event: Queued;
  copies: number;
  foldDay: number | null;
  foldBy: string;
}

const columns = 'time, kind, module, level, source, account, ip, params, detail, repeats, fold_day, fold_by';
const placeholders = '?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?';
/** After a failed write, appends do not retry the flush for this long, and the timer waits as long. */
const retryAfterMs = 1_000;

/**
 * Fills the defaults of `eventInputSchema` (the inputs are already checked; calling zod per event
 * would cost more than the write). A test compares this with eventInputSchema.parse.
 */
export function withDefaults(input: EventInput, now: number): Queued {
  return {
    time: input.time ?? now,
    kind: input.kind,
    module: input.module,
    level: input.level,
    source: input.source,
    account: input.account ?? '',
    ip: input.ip ?? '',
    params: (input.params ?? {}) as EventParams,
    detail: input.detail ?? '',
  };
}

/**
 * Queues events in memory and writes them in one transaction per flush: every `flushIntervalMs`
 * after the first queued event, or at once when `maxBatch` are queued. In simple mode repeats of a
 * foldable kind from one IP on one local day, equal in the kind's `foldBy` parameters (the attack kind,
 * the rule), are folded into the day's first row (UPSERT on the
 * fold index); a batch gathers its own repeats first so an attack wave costs one statement per key.
 */
export function eventWriter(db: Db, counters: Counters, options: EventWriterOptions): EventWriter {
  const insert = db.prepare(`INSERT INTO events (${columns}) VALUES (${placeholders})`);
  const upsert = db.prepare(
    `INSERT INTO events (${columns}) VALUES (${placeholders})
     ON CONFLICT (fold_day, kind, ip, fold_by) WHERE fold_day IS NOT NULL DO UPDATE SET repeats = repeats + excluded.repeats + 1
     RETURNING id, repeats`,
  );
  const dayOf = localDayCounter();
  let queue: Queued[] = [];
  let mode = options.mode;
  let timer: NodeJS.Timeout | null = null;
  let retryAt = 0;
  let droppedCount = 0;
  let stopped = false;

  function schedule(delayMs = options.flushIntervalMs): void {
    if (timer || stopped || queue.length === 0) return;
    timer = setTimeout(() => {
      timer = null;
      try {
        flush();
      } catch (err) {
        options.onError(err);
        schedule(Math.max(options.flushIntervalMs, retryAfterMs));
      }
    }, delayMs);
    timer.unref();
  }

  function rows(batch: readonly Queued[]): Pending[] {
    const out: Pending[] = [];
    const groups = new Map<string, Pending>();
    for (const event of batch) {
      if (mode !== 'simple' || !isFoldable(event.kind, event.ip)) {
        out.push({ event, copies: 1, foldDay: null, foldBy: '' });
        continue;
      }
      const day = dayOf(event.time);
      const by = foldBy(event.kind, event.params);
      const key = foldKey(day, event.kind, event.ip, by);
      const group = groups.get(key);
      if (group) {
        group.copies++;
      } else {
        const pending: Pending = { event, copies: 1, foldDay: day, foldBy: by };
        groups.set(key, pending);
        out.push(pending);
      }
    }
    return out;
  }

  /** Writes the batch; returns the rows it inserted (not those folded into existing rows). */
  function write(batch: readonly Queued[]): EventRecord[] {
    const stored: EventRecord[] = [];
    for (const { event: e, copies, foldDay, foldBy: by } of rows(batch)) {
      const args = [e.time, e.kind, e.module, e.level, e.source, e.account, e.ip, JSON.stringify(e.params), e.detail] as const;
      if (foldDay === null) {
        const { lastInsertRowid } = insert.run(...args, 0, null, '');
        stored.push({ id: Number(lastInsertRowid), ...e, repeats: 0 });
        continue;
      }
      // A new row starts with the batch's extra copies; an existing one grows by all of them,
      // so it returns more than `copies - 1`.
      const row = upsert.get(...args, copies - 1, foldDay, by);
      if (Number(row?.['repeats']) === copies - 1) stored.push({ id: Number(row?.['id']), ...e, repeats: copies - 1 });
    }
    counters.add('events', stored.length);
    return stored;
  }

  function flush(): number {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    if (queue.length === 0) return 0;
    const batch = queue;
    queue = [];
    let stored: EventRecord[];
    try {
      stored = withTransaction(db, () => {
        const rows = write(batch);
        options.inTransaction?.(batch);
        return rows;
      });
    } catch (err) {
      // Nothing was written: keep the events for the next try.
      queue = batch.concat(queue);
      retryAt = Date.now() + retryAfterMs;
      throw err;
    }
    retryAt = 0;
    if (options.onStored && stored.length > 0) {
      try {
        options.onStored(stored);
      } catch (err) {
        options.onError(err);
      }
    }
    return batch.length;
  }

  return {
    append(inputs) {
      if (stopped) throw new Error('event store is closed');
      const now = options.now();
      let accepted = 0;
      for (const input of inputs) {
        if (queue.length >= options.maxQueued) {
          droppedCount++;
          continue;
        }
        queue.push(withDefaults(input, now));
        accepted++;
      }
      if (queue.length >= options.maxBatch && Date.now() >= retryAt) {
        try {
          flush();
        } catch (err) {
          options.onError(err);
        }
      }
      schedule();
      return accepted;
    },
    flush,
    setMode(next) {
      mode = next;
    },
    mode: () => mode,
    pending: () => queue.length,
    dropped: () => droppedCount,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
