import { describe, expect, it, vi } from 'vitest';
import { eventInputSchema, type EventInput, type EventRecord } from '@rampart/contracts';
import * as sqlite from '@rampart/sqlite';
import { withDefaults } from '../src/event-writer.ts';
import { openEventStore } from '../src/index.ts';
import { admin, ev, openTemp, T0, tempPath } from './helpers.ts';

// Counts write transactions: every write of the store goes through withTransaction.
vi.mock('@rampart/sqlite', async (importOriginal) => {
  const actual = await importOriginal<typeof sqlite>();
  return { ...actual, withTransaction: vi.fn(actual.withTransaction) };
});
const transactions = vi.mocked(sqlite.withTransaction);

describe('batched writes', () => {
  it('keeps events in memory until a flush, then they are all visible', () => {
    const { store } = openTemp({ mode: 'full', flushIntervalMs: 60_000 });
    for (let i = 0; i < 50; i++) store.append([admin({ time: T0 + i })]);
    transactions.mockClear();
    expect(store.flush()).toBe(50);
    expect(transactions).toHaveBeenCalledTimes(1);
    expect(store.flush()).toBe(0);
    expect(store.query({ limit: 100 }).list).toHaveLength(50);
  });

  it('writes many appends in one transaction per maxBatch', () => {
    const { store } = openTemp({ mode: 'full', flushIntervalMs: 60_000, maxBatch: 1000 });
    transactions.mockClear();
    for (let i = 0; i < 5000; i++) store.append([admin({ time: T0 + i })]);
    expect(transactions).toHaveBeenCalledTimes(5);
    expect(store.stats().events).toBe(5000);
  });

  it('flushes by itself after flushIntervalMs', async () => {
    const path = tempPath();
    const { store } = openTemp({ flushIntervalMs: 20 }, path);
    store.append([admin(), admin()]);
    // A second connection sees nothing until the timer wrote the batch.
    const reader = openEventStore(path);
    try {
      expect(reader.stats().events).toBe(0);
      await vi.waitFor(() => expect(reader.stats().events).toBe(2), { timeout: 2000, interval: 10 });
    } finally {
      reader.close();
    }
  });

  it('reads flush the queue first, so a writer then a reader see each other', () => {
    const { store } = openTemp({ flushIntervalMs: 60_000 });
    store.append([admin({ detail: 'first' })]);
    const page = store.query({ limit: 10 });
    expect(page.list.map((r) => r.detail)).toEqual(['first']);
    store.append([admin({ detail: 'second' })]);
    expect(store.get(page.list[0]!.id + 1)?.detail).toBe('second');
  });

  it('hands the stored records, ids filled, to onStored after each flush', () => {
    const seen: EventRecord[][] = [];
    const { store } = openTemp({ flushIntervalMs: 60_000, onStored: (records) => seen.push(records) });
    store.append([admin({ detail: 'a' }), admin({ detail: 'b' })]);
    store.flush();
    store.append([admin({ detail: 'c' })]);
    store.flush();
    expect(seen.map((batch) => batch.map((r) => [r.id, r.detail]))).toEqual([[[1, 'a'], [2, 'b']], [[3, 'c']]]);
    expect(seen[0]![0]).toEqual(store.get(1));
  });

  it('a throwing onStored does not lose the batch', () => {
    const errors: unknown[] = [];
    const { store } = openTemp({ onStored: () => { throw new Error('syslog down'); }, onError: (e) => errors.push(e) });
    store.append([admin()]);
    store.flush();
    expect(errors).toHaveLength(1);
    expect(store.stats().events).toBe(1);
  });

  it('fills defaults as eventInputSchema does, time from the clock', () => {
    const inputs: EventInput[] = [
      { kind: 'panel.logout', module: 'system', level: 'info', source: 'panel' },
      { kind: 'panel.action', module: 'firewall', level: 'critical', source: 'x', account: 'a', ip: '1.1.1.1', params: { n: 1 }, detail: 'd', time: 5 },
    ];
    for (const input of inputs) {
      const parsed = eventInputSchema.parse(input);
      expect(withDefaults(input, 42)).toEqual({ ...parsed, time: parsed.time ?? 42 });
    }
    const { store } = openTemp({ now: () => 1234 });
    store.append([inputs[0]!]);
    expect(store.get(1)).toEqual({ id: 1, time: 1234, kind: 'panel.logout', module: 'system', level: 'info', source: 'panel', account: '', ip: '', params: {}, detail: '', repeats: 0 });
  });

  it('keeps its data across close and reopen', () => {
    const path = tempPath();
    const first = openEventStore(path, { flushIntervalMs: 60_000 });
    first.append([admin({ detail: 'kept', params: { action: 'x', n: 3 } }), ev(), ev()]);
    first.raiseNotice({ kind: 'attack', params: { summary: 's' } });
    first.appendPhotos([{ ip: '1.1.1.1', method: 'GET', url: '/' }]);
    first.close(); // flushes the queue
    const again = openEventStore(path);
    try {
      expect(again.stats()).toMatchObject({ events: 2, photos: 1 });
      expect(again.get(1)).toMatchObject({ detail: 'kept', params: { action: 'x', n: 3 } });
      expect(again.get(2)?.repeats).toBe(1);
      expect(again.unreadNotices()).toBe(1);
    } finally {
      again.close();
    }
  });

  it('keeps a failed batch queued and writes it later', () => {
    const errors: unknown[] = [];
    const { store } = openTemp({ flushIntervalMs: 60_000, maxBatch: 2, onError: (e) => errors.push(e) });
    transactions.mockImplementationOnce(() => { throw new Error('disk full'); });
    store.append([admin(), admin()]); // the batch write fails: reported, not thrown
    expect(errors).toHaveLength(1);
    expect(store.flush()).toBe(2);
    expect(store.stats().events).toBe(2);
  });

  it('refuses appends after close', () => {
    const { store } = openTemp();
    store.close();
    expect(() => store.append([admin()])).toThrow(/closed/);
  });

  it('drops events past maxQueued rather than growing without bound', () => {
    const { store } = openTemp({ flushIntervalMs: 60_000, maxBatch: 1000, maxQueued: 3 });
    expect(store.append([admin(), admin(), admin(), admin()])).toBe(3);
    expect(store.flush()).toBe(3);
  });
});
