import { statSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { EventInput } from '@rampart/contracts';
import * as sqlite from '@rampart/sqlite';
import { openEventStore } from '../src/index.ts';
import { admin, day, ev, openTemp, photo, T0, tempPath } from './helpers.ts';

vi.mock('@rampart/sqlite', async (importOriginal) => {
  const actual = await importOriginal<typeof sqlite>();
  return { ...actual, withTransaction: vi.fn(actual.withTransaction) };
});
const transactions = vi.mocked(sqlite.withTransaction);

describe('purge', () => {
  it('removes older events and photos in chunks of 10 000 rows per transaction', () => {
    const { store } = openTemp({ mode: 'full', maxBatch: 100_000 });
    const old: EventInput[] = Array.from({ length: 25_000 }, (_, i) => admin({ time: T0 - day + i }));
    store.append(old);
    store.append([admin({ time: T0 }), admin({ time: T0 + 1 })]);
    store.appendPhotos([photo({ time: T0 - day }), photo({ time: T0 - 1 }), photo({ time: T0 })]);
    store.flush();
    transactions.mockClear();
    expect(store.purgeBefore(T0)).toBe(25_000);
    // Events: 10 000 + 10 000 + 5 000; photos: one chunk; the rollups: one.
    expect(transactions).toHaveBeenCalledTimes(5);
    expect(store.stats()).toMatchObject({ events: 2, photos: 1, oldest: T0 });
    expect(store.query({ limit: 10 }).list.map((r) => r.time)).toEqual([T0 + 1, T0]);
    expect(store.queryPhotos({ limit: 10 }).list.map((p) => p.time)).toEqual([T0]);
    expect(store.purgeBefore(T0)).toBe(0);
  });
});

describe('stats', () => {
  it('starts empty', () => {
    const { store } = openTemp();
    expect(store.stats()).toMatchObject({ events: 0, photos: 0, oldest: null });
  });

  it('keeps counters right through append, fold, purge, photos and reopen', () => {
    const path = tempPath();
    const { store } = openTemp({}, path);
    store.append([ev({ time: T0 - 2 * day }), ev({ time: T0 - 2 * day }), admin({ time: T0 - day }), ev({ time: T0 }), ev({ time: T0, ip: '10.9.9.9' })]);
    expect(store.stats()).toMatchObject({ events: 4, photos: 0, oldest: T0 - 2 * day });
    store.append([ev({ time: T0 }), ev({ time: T0 })]); // folded
    expect(store.stats().events).toBe(4);
    store.appendPhotos([photo(), photo()]);
    expect(store.purgeBefore(T0 - day)).toBe(1);
    expect(store.stats()).toMatchObject({ events: 3, photos: 2, oldest: T0 - day });
    expect(store.clearPhotos()).toBe(2);
    store.close();
    const again = openEventStore(path);
    try {
      expect(again.stats()).toMatchObject({ events: 3, photos: 0, oldest: T0 - day });
      expect(again.query({ limit: 100 }).list).toHaveLength(3);
    } finally {
      again.close();
    }
  });

  it('reports the file and WAL size in bytes', () => {
    const { store, path } = openTemp({ mode: 'full' });
    store.append(Array.from({ length: 2000 }, () => admin({ detail: 'x'.repeat(500) })));
    const { bytes } = store.stats();
    let wal = 0;
    try {
      wal = statSync(`${path}-wal`).size;
    } catch {
      // checkpointed away
    }
    expect(bytes).toBe(statSync(path).size + wal);
    expect(bytes).toBeGreaterThan(1_000_000);
  });
});
