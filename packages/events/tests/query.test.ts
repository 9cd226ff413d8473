import { describe, expect, it } from 'vitest';
import type { EventInput, EventQuery, EventRecord } from '@rampart/contracts';
import type { EventStore } from '../src/index.ts';
import { admin, day, hour, openTemp, T0 } from './helpers.ts';

/** Full mode: every row kept, so each input below is one row with a known id (its index + 1). */
function seeded(inputs: EventInput[]): EventStore {
  const { store } = openTemp({ mode: 'full' });
  store.append(inputs);
  return store;
}

const ids = (page: { list: EventRecord[] }) => page.list.map((r) => r.id);

const sample: EventInput[] = [
  /* 1 */ admin({ time: T0 - 3 * day, module: 'firewall', level: 'info', ip: '10.0.0.1', account: 'alice' }),
  /* 2 */ admin({ time: T0 - 2 * day, module: 'firewall', level: 'critical', ip: '10.0.0.2', detail: 'GET /etc/PASSWD' }),
  /* 3 */ admin({ time: T0 - day, module: 'website', level: 'critical', ip: '10.0.0.1', params: { path: '/var/www/Upload.php' } }),
  /* 4 */ admin({ time: T0 - hour, module: 'website', level: 'warning', ip: '192.168.1.10', kind: 'module.switched' }),
  /* 5 */ admin({ time: T0, module: 'system', level: 'info', ip: '', account: 'Bob_99' }),
  /* 6 */ admin({ time: T0 + hour, module: 'firewall', level: 'critical', ip: '10.0.0.1', detail: '100% cpu' }),
];

describe('event queries', () => {
  it('returns newest first', () => {
    expect(ids(seeded(sample).query({ limit: 100 }))).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it('filters by the time range [from, to)', () => {
    const store = seeded(sample);
    expect(ids(store.query({ from: T0 - day, to: T0, limit: 100 }))).toEqual([4, 3]);
    expect(ids(store.query({ from: T0, limit: 100 }))).toEqual([6, 5]);
    expect(ids(store.query({ to: T0 - 2 * day, limit: 100 }))).toEqual([1]);
  });

  it('filters by module, level and exact ip', () => {
    const store = seeded(sample);
    expect(ids(store.query({ module: 'firewall', limit: 100 }))).toEqual([6, 2, 1]);
    expect(ids(store.query({ level: 'critical', limit: 100 }))).toEqual([6, 3, 2]);
    expect(ids(store.query({ ip: '10.0.0.1', limit: 100 }))).toEqual([6, 3, 1]);
    expect(ids(store.query({ ip: '10.0.0.', limit: 100 }))).toEqual([]);
    expect(ids(store.query({ ip: '', limit: 100 }))).toHaveLength(6); // empty = no filter, as on the log page
  });

  it('combines filters', () => {
    const store = seeded(sample);
    expect(ids(store.query({ module: 'firewall', level: 'critical', limit: 100 }))).toEqual([6, 2]);
    expect(ids(store.query({ module: 'firewall', level: 'critical', ip: '10.0.0.1', limit: 100 }))).toEqual([6]);
    expect(ids(store.query({ from: T0 - 2 * day, to: T0 + hour, level: 'critical', ip: '10.0.0.1', limit: 100 }))).toEqual([3]);
    expect(ids(store.query({ from: T0 - 4 * day, module: 'firewall', keyword: { text: 'passwd', kinds: [] }, limit: 100 }))).toEqual([2]);
    expect(ids(store.query({ module: 'website', keyword: { text: 'passwd', kinds: [] }, limit: 100 }))).toEqual([]);
  });

  it('matches the keyword case-insensitively in account, ip, detail and params, or by kind', () => {
    const store = seeded(sample);
    const keyword = (text: string, kinds: string[] = []) => ids(store.query({ keyword: { text, kinds }, limit: 100 }));
    expect(keyword('ALICE')).toEqual([1]); // account
    expect(keyword('bob_')).toEqual([5]); // account, `_` is literal
    expect(keyword('192.168')).toEqual([4]); // ip
    expect(keyword('etc/passwd')).toEqual([2]); // detail
    expect(keyword('upload.PHP')).toEqual([3]); // params JSON
    expect(keyword('0%')).toEqual([6]); // `%` is literal
    expect(keyword('0_0')).toEqual([]); // `_` is literal (as a wildcard it would match 10.0.0.1)
    expect(keyword('no such thing', ['module.switched'])).toEqual([4]); // kinds
    expect(keyword('alice', ['module.switched'])).toEqual([4, 1]); // either
    expect(keyword('nothing')).toEqual([]);
  });

  it('pages by keyset across equal timestamps without losing or repeating a row', () => {
    // 45 rows: runs of equal times, inserted out of time order.
    const inputs: EventInput[] = [];
    for (let i = 0; i < 45; i++) inputs.push(admin({ time: T0 + (i % 4) * 1000, detail: `row ${i}` }));
    const store = seeded(inputs);
    for (const limit of [1, 7, 10, 45]) {
      const seen: number[] = [];
      let q: EventQuery = { limit };
      for (let guard = 0; ; guard++) {
        expect(guard).toBeLessThan(50);
        const page = store.query(q);
        seen.push(...ids(page));
        const last = page.list.at(-1);
        if (!page.more || !last) break;
        q = { limit, before: last.id };
      }
      expect(seen).toHaveLength(45);
      expect(new Set(seen).size).toBe(45);
      const all = store.query({ limit: 1000 }).list;
      expect(seen).toEqual(all.map((r) => r.id));
      // Order: time desc, then id desc.
      for (let i = 1; i < all.length; i++) {
        const [a, b] = [all[i - 1]!, all[i]!];
        expect(a.time > b.time || (a.time === b.time && a.id > b.id)).toBe(true);
      }
    }
  });

  it('pages with filters and reports `more` exactly', () => {
    const inputs: EventInput[] = [];
    for (let i = 0; i < 30; i++) inputs.push(admin({ time: T0 + Math.floor(i / 5), level: i % 3 === 0 ? 'critical' : 'info' }));
    const store = seeded(inputs);
    const first = store.query({ level: 'critical', limit: 5 });
    expect(first.more).toBe(true);
    const second = store.query({ level: 'critical', limit: 5, before: first.list.at(-1)!.id });
    expect(second.more).toBe(false);
    expect([...ids(first), ...ids(second)]).toEqual([28, 25, 22, 19, 16, 13, 10, 7, 4, 1]);
    expect(store.query({ level: 'critical', limit: 10 }).more).toBe(false);
  });

  it('returns an empty page when the `before` row is gone', () => {
    const store = seeded(sample);
    expect(store.query({ limit: 10, before: 999 })).toEqual({ list: [], more: false });
  });

  it('get returns one record or null', () => {
    const store = seeded(sample);
    expect(store.get(3)).toMatchObject({ id: 3, module: 'website', params: { path: '/var/www/Upload.php' } });
    expect(store.get(99)).toBeNull();
  });
});

describe('export', () => {
  it('writes a time range oldest first, in chunks, and filters', () => {
    const inputs: EventInput[] = [];
    for (let i = 0; i < 12_345; i++) inputs.push(admin({ time: T0 + Math.floor(i / 3), module: i % 2 ? 'firewall' : 'system' }));
    inputs.push(admin({ time: T0 - 1 }), admin({ time: T0 + 10_000_000 }));
    const { store } = openTemp({ mode: 'full', maxBatch: 100_000 });
    store.append(inputs);
    const out: EventRecord[] = [];
    expect(store.exportRange(T0, T0 + 5000, (r) => out.push(r))).toBe(12_345);
    expect(out.map((r) => r.id)).toEqual(Array.from({ length: 12_345 }, (_, i) => i + 1));
    const chunks = [...store.exportChunks(T0, T0 + 5000, { module: 'firewall' }, 1000)];
    expect(chunks.map((c) => c.length)).toEqual([...Array<number>(6).fill(1000), 172]);
    expect(chunks.flat().every((r) => r.module === 'firewall')).toBe(true);
    expect(store.exportRange(T0 + 20_000, T0 + 30_000, () => {})).toBe(0);
  });
});
