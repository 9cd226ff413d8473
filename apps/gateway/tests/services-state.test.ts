import type { Worker } from 'node:cluster';
import { defaultWebsiteSettings, type GatewayEventRecord, type WebsiteInterceptEntry } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { CappedMap } from '../src/capped-map.ts';
import { createClusterServices } from '../src/cluster-services.ts';
import type { FromWorker } from '../src/cluster-messages.ts';
import { CountAggregator } from '../src/count-aggregator.ts';
import { EventBuffer } from '../src/event-buffer.ts';
import { MinuteSlots } from '../src/minute-slots.ts';
import { PolicyHub } from '../src/policy-hub.ts';
import { TimedMaster } from '../src/timed-master.ts';

const t0 = Date.UTC(2026, 10, 22, 6, 0, 0);
const entry = (ip: string, created: number, expires: number, reason: WebsiteInterceptEntry['reason'] = 'manual'): WebsiteInterceptEntry => ({ ip, created_at: created, expires_at: expires, detail: '', reason });
const event = (n: number, extra: Partial<GatewayEventRecord> = {}): GatewayEventRecord => ({
  type: 'block', site_id: 'shop', incident_id: `i${n}`, at: t0 + n, client_ip: '10.0.0.1', method: 'GET', target: `/${n}`, host: 'shop', rule: 'r', kind: 'sqli', area: null, alert: false, ...extra,
});

describe('cluster-wide counts (primary sum)', () => {
  it('marks an address over once the workers’ reports sum past the threshold, until the minute forgets them', () => {
    const sum = new CountAggregator();
    // Two workers, 6 requests each at t0: 12 > 10.
    expect(sum.add([['cc', 'shop', '10.0.0.1', 6, 10]], t0)).toEqual([]);
    const marks = sum.add([['cc', 'shop', '10.0.0.1', 6, 10]], t0 + 100);
    expect(marks).toEqual([['cc', 'shop', '10.0.0.1', t0 + 60_000]]);
    // The same picture is not sent again; a later second that extends the mark is.
    expect(sum.add([['cc', 'shop', '10.0.0.1', 1, 10]], t0 + 200)).toEqual([]);
    const later = sum.add([['cc', 'shop', '10.0.0.1', 5, 10]], t0 + 5_000);
    // 18 in the window: t0's 13 must leave for the sum to be ≤ 10 → t0 + 60 s... then still 5 ≤ 10.
    expect(later).toEqual([]);
    expect(sum.total('cc', 'shop', '10.0.0.1', t0 + 5_000)).toBe(18);
    expect(sum.add([['cc', 'shop', '10.0.0.1', 11, 10]], t0 + 6_000)).toEqual([['cc', 'shop', '10.0.0.1', t0 + 66_000]]);
    // Kinds and sites count apart.
    expect(sum.total('not_found', 'shop', '10.0.0.1', t0 + 6_000)).toBe(0);
    expect(sum.total('cc', 'blog', '10.0.0.1', t0 + 6_000)).toBe(0);
    sum.reset('cc', 'shop', '10.0.0.1');
    expect(sum.total('cc', 'shop', '10.0.0.1', t0 + 6_000)).toBe(0);
  });

  it('tracks a bounded number of addresses per site and forgets silent ones', () => {
    const sum = new CountAggregator({ maxPerSite: 1000 });
    for (let i = 0; i < 5000; i++) sum.add([['cc', 'shop', `10.1.${i >> 8}.${i & 255}`, 1, 100]], t0);
    expect(sum.size()).toBe(1000);
    expect(sum.total('cc', 'shop', '10.1.0.0', t0)).toBe(0); // oldest gone
    sum.prune(t0 + 61_000);
    expect(sum.size()).toBe(0);
  });
});

describe('worker services: counting without IPC per request', () => {
  const make = () => {
    const sent: FromWorker[] = [];
    const services = createClusterServices({ send: (m) => sent.push(m), syncEveryMs: 60_000 });
    return { sent, services };
  };

  it('is over on its own count, or on the primary’s mark; reports increments in one batch', () => {
    const { sent, services } = make();
    for (let i = 0; i < 5; i++) expect(services.count('cc', 'shop', '10.0.0.1', t0 + i, 5)).toBe(false);
    expect(services.count('cc', 'shop', '10.0.0.1', t0 + 5, 5)).toBe(true);
    expect(services.count('cc', 'shop', '10.0.0.2', t0, 5)).toBe(false);
    expect(sent).toEqual([]);
    services.flush();
    expect(sent).toEqual([{ type: 'sync', counts: [['cc', 'shop', '10.0.0.1', 6, 5], ['cc', 'shop', '10.0.0.2', 1, 5]], events: [], dropped: 0 }]);
    services.receive({ type: 'over', marks: [['cc', 'shop', '10.0.0.2', t0 + 60_000]] });
    expect(services.count('cc', 'shop', '10.0.0.2', t0 + 10, 5)).toBe(true);
    expect(services.count('cc', 'shop', '10.0.0.2', t0 + 60_001, 5)).toBe(false);
    services.stop();
  });

  it('forgets a count here and everywhere on reset', () => {
    const { sent, services } = make();
    for (let i = 0; i < 7; i++) services.count('cc', 'shop', '10.0.0.1', t0, 5);
    services.resetCount('cc', 'shop', '10.0.0.1');
    expect(sent).toContainEqual({ type: 'count-reset', kind: 'cc', siteId: 'shop', ip: '10.0.0.1' });
    expect(services.count('cc', 'shop', '10.0.0.1', t0, 5)).toBe(false);
    services.receive({ type: 'over', marks: [['not_found', 'shop', '10.0.0.3', t0 + 60_000]] });
    services.receive({ type: 'count-reset', kind: 'not_found', siteId: 'shop', ip: '10.0.0.3' });
    expect(services.count('not_found', 'shop', '10.0.0.3', t0, 5)).toBe(false);
    services.stop();
  });

  it('keeps at most maxTracked addresses per site', () => {
    const services = createClusterServices({ send: () => {}, syncEveryMs: 60_000, maxTracked: 100 });
    for (let i = 0; i < 10; i++) services.count('cc', 'shop', '10.0.0.1', t0, 5);
    for (let i = 0; i < 200; i++) services.count('cc', 'shop', `10.2.0.${i}`, t0, 5);
    // 10.0.0.1 was evicted: its count starts again.
    expect(services.count('cc', 'shop', '10.0.0.1', t0, 5)).toBe(false);
    services.stop();
  });

  it('applies its own timed additions at once and reports them; takes the primary’s relays and start lists', () => {
    const { sent, services } = make();
    services.configure({ type: 'config', exposeWorker: false, config: { workers: 1, timeouts: { header_ms: 1, idle_ms: 1, upstream_connect_ms: 1, upstream_response_ms: 1 }, upstream_fail_ms: 0, sites: [],
      policy: { settings: defaultWebsiteSettings, super_whitelist: [], common_areas: [], cookie_secret: 'a'.repeat(64), timed: { intercepted: [entry('10.9.9.9', t0, t0 + 1e9)], authorized: [] } } } });
    expect(services.timed().intercepted.get('10.9.9.9')).toBe(t0 + 1e9);
    services.addTimed('intercepted', entry('10.0.0.5', t0, t0 + 60_000, 'cc'));
    expect(services.timed().intercepted.get('10.0.0.5')).toBe(t0 + 60_000);
    expect(sent).toEqual([{ type: 'timed', change: { op: 'add', list: 'intercepted', entries: [entry('10.0.0.5', t0, t0 + 60_000, 'cc')] } }]);
    services.receive({ type: 'timed', change: { op: 'add', list: 'authorized', entries: [{ ip: '10.0.0.6', created_at: t0, expires_at: t0 + 5, detail: '', reason: 'password' }] } });
    expect(services.timed().authorized.has('10.0.0.6')).toBe(true);
    services.receive({ type: 'timed', change: { op: 'remove', list: 'intercepted', ips: ['10.0.0.5'] } });
    expect(services.timed().intercepted.has('10.0.0.5')).toBe(false);
    services.stop();
  });

  it('batches events with the counts and counts the ones past the per-sync cap', () => {
    const sent: FromWorker[] = [];
    const services = createClusterServices({ send: (m) => sent.push(m), syncEveryMs: 60_000, maxEventsPerSync: 2 });
    for (let i = 0; i < 5; i++) services.emit(event(i));
    services.flush();
    expect(sent).toEqual([{ type: 'sync', counts: [], events: [event(0), event(1)], dropped: 3 }]);
    services.flush();
    expect(sent).toHaveLength(1);
    services.stop();
  });
});

describe('timed lists: master copy across reloads', () => {
  const base = (...entries: WebsiteInterceptEntry[]) => TimedMaster.fileLists({ intercepted: entries, authorized: [] });

  it('keeps runtime additions through a reload whose file does not have them yet, drops expired ones', () => {
    const master = new TimedMaster();
    master.commit(base(entry('10.0.0.1', t0, t0 + 1e6)), t0);
    master.apply({ op: 'add', list: 'intercepted', entries: [entry('10.0.0.2', t0 + 10, t0 + 1e6, 'cc'), entry('10.0.0.3', t0 + 10, t0 + 500, 'cc')] }, t0 + 20);
    const next = base(entry('10.0.0.1', t0, t0 + 1e6), entry('10.0.0.4', t0 + 30, t0 + 1e6));
    const lists = master.effective(next, t0 + 1000);
    expect(lists.intercepted.map((e) => e.ip).sort()).toEqual(['10.0.0.1', '10.0.0.2', '10.0.0.4']);
  });

  it('applies runtime removals unless the file has a newer entry, and forgets changes the file caught up with', () => {
    const master = new TimedMaster();
    master.commit(base(entry('10.0.0.1', t0, t0 + 1e6), entry('10.0.0.2', t0, t0 + 1e6)), t0);
    master.apply({ op: 'remove', list: 'intercepted', ips: ['10.0.0.1', '10.0.0.2'] }, t0 + 100);
    // Stale file (still lists both): both stay removed. A file that re-added .2 later wins for .2.
    const stale = base(entry('10.0.0.1', t0, t0 + 1e6), entry('10.0.0.2', t0 + 200, t0 + 1e6));
    expect(master.effective(stale, t0 + 300).intercepted.map((e) => e.ip)).toEqual(['10.0.0.2']);
    master.commit(stale, t0 + 300);
    // The file catches up with the removal of .1: the change is forgotten, the file rules again.
    master.commit(base(entry('10.0.0.2', t0 + 200, t0 + 1e6)), t0 + 400);
    expect(master.effective(base(entry('10.0.0.1', t0 + 500, t0 + 1e6)), t0 + 600).intercepted.map((e) => e.ip)).toEqual(['10.0.0.1']);
  });

  it('lets a runtime addition replace an older file entry of the same address', () => {
    const master = new TimedMaster();
    master.commit(base(entry('10.0.0.1', t0, t0 + 1000)), t0);
    master.apply({ op: 'add', list: 'intercepted', entries: [entry('10.0.0.1', t0 + 50, t0 + 1e6, 'cc')] }, t0 + 60);
    expect(master.current(t0 + 2000).intercepted).toEqual([entry('10.0.0.1', t0 + 50, t0 + 1e6, 'cc')]);
  });
});

describe('event buffer', () => {
  it('drains oldest first, at most the drain size, with more and dropped counts', () => {
    const buffer = new EventBuffer({ maxEvents: 5, drainEvents: 2 });
    buffer.push([1, 2, 3, 4, 5, 6, 7].map((n) => event(n)));
    expect(buffer.drain()).toEqual({ ok: true, events: [event(3), event(4)], dropped: 2, more: true });
    expect(buffer.drain()).toEqual({ ok: true, events: [event(5), event(6)], dropped: 0, more: true });
    buffer.lost(4);
    expect(buffer.drain()).toEqual({ ok: true, events: [event(7)], dropped: 4, more: false });
    expect(buffer.drain()).toEqual({ ok: true, events: [], dropped: 0, more: false });
  });

  it('refuses malformed events from a worker (counted as dropped) and fills in missing areas', () => {
    const buffer = new EventBuffer({ areaOf: (ip) => (ip === '10.0.0.1' ? 'JP' : null) });
    buffer.push([{ type: 'nonsense' }, event(1), event(2, { area: 'DE' })]);
    expect(buffer.drain()).toEqual({ ok: true, events: [event(1, { area: 'JP' }), event(2, { area: 'DE' })], dropped: 1, more: false });
  });

  it('bounds memory by size as well: big snapshots push the oldest out, and a drain stays one sane line', () => {
    const big = (n: number) => event(n, { snapshot: { headers: 'GET / HTTP/1.1', body: 'x'.repeat(900_000) } });
    const buffer = new EventBuffer({ maxBytes: 5_000_000, drainBytes: 2_000_000 });
    buffer.push([1, 2, 3, 4, 5, 6, 7, 8].map(big));
    const first = buffer.drain();
    expect(first.dropped).toBe(3);
    expect(first.events.map((e) => e.incident_id)).toEqual(['i4', 'i5']);
    expect(first.more).toBe(true);
    // A buffer of many small events under a flood keeps working in O(1) per event.
    const flood = new EventBuffer({ maxEvents: 10_000 });
    const began = performance.now();
    for (let i = 0; i < 200; i++) flood.push(Array.from({ length: 1000 }, (_, j) => event(i * 1000 + j)));
    expect(performance.now() - began).toBeLessThan(5000);
    const drained = flood.drain();
    expect(drained.dropped).toBe(190_000);
    expect(drained.events[0]?.incident_id).toBe('i190000');
    expect(drained.events).toHaveLength(1000);
  });

  it('holds at most 16 MiB of snapshots by default, and nothing (without an area lookup) when told 0 events', () => {
    // 40 snapshots of 900 kB = ~34 MiB pushed: only the newest 18 fit under the default cap (~0.86 MiB each).
    const buffer = new EventBuffer({ drainEvents: 100, drainBytes: 64 * 2 ** 20 });
    buffer.push(Array.from({ length: 40 }, (_, n) => event(n, { snapshot: { headers: 'GET / HTTP/1.1', body: 'x'.repeat(900_000) } })));
    const drained = buffer.drain();
    expect(drained.events).toHaveLength(18);
    expect(drained.dropped).toBe(22);
    expect(drained.events[0]?.incident_id).toBe('i22');
    // A primary nobody drains (no admin socket, main.ts) keeps no events and looks up no areas.
    let lookups = 0;
    const none = new EventBuffer({ maxEvents: 0, areaOf: () => (lookups++, 'JP') });
    none.push([event(1), event(2)]);
    expect(none.length()).toBe(0);
    expect(lookups).toBe(0);
    expect(none.drain()).toEqual({ ok: true, events: [], dropped: 0, more: false });
  });
});

describe('capped maps and minute slots (what an attacker with many addresses can grow)', () => {
  it('evicts the oldest-inserted key, keeps an updated key in its place, and stays fast when a botnet cycles past the cap', () => {
    const evicted: string[] = [];
    const map = new CappedMap<string, number>(3, (k) => evicted.push(k));
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    map.set('a', 10);
    map.set('d', 4);
    expect(evicted).toEqual(['a']);
    map.delete('b');
    map.set('e', 5);
    expect([...map.entries()]).toEqual([['c', 3], ['d', 4], ['e', 5]]);
    const big = new CappedMap<string, number>(10_000);
    const began = performance.now();
    for (let i = 0; i < 200_000; i++) big.set(`k${i % 13_000}`, i);
    expect(big.size).toBe(10_000);
    // A plain Map evicting through keys().next() took ~100 µs per insertion here.
    expect(performance.now() - began).toBeLessThan(2000);
  });

  it('counts per address over a sliding minute of seconds, reuses slots, and says when a count falls back', () => {
    const slots = new MinuteSlots(2);
    expect(slots.add('a', t0)).toBe(1);
    expect(slots.add('a', t0 + 30_000, 4)).toBe(5);
    expect(slots.overUntil('a', t0 + 40_000, 4)).toBe(t0 + 60_000);
    expect(slots.overUntil('a', t0 + 40_000, 0)).toBe(t0 + 90_000);
    expect(slots.overUntil('a', t0 + 40_000, 5)).toBe(0);
    expect(slots.count('a', t0 + 59_999)).toBe(5);
    expect(slots.count('a', t0 + 60_000)).toBe(4);
    slots.add('b', t0);
    slots.add('c', t0);
    expect(slots.count('a', t0 + 60_000)).toBe(0); // evicted, its slot reused
    expect(slots.add('c', t0 + 1000)).toBe(2);
    expect(slots.count('c', t0 + 200_000)).toBe(0);
    slots.prune(t0 + 200_000);
    expect(slots.size).toBe(0);
  });
});

describe('the primary takes only well-formed policy messages from workers', () => {
  const worker = {} as Worker;
  it('lets a worker add one well-formed entry, never remove; ignores bad counts; validates events', () => {
    const hub = new PolicyHub({ log: () => {} });
    const now = Date.now();
    const good = entry('10.8.0.1', now, now + 60_000, 'cc');
    hub.handle(worker, { type: 'timed', change: { op: 'add', list: 'intercepted', entries: [good] } });
    hub.handle(worker, { type: 'timed', change: { op: 'add', list: 'intercepted', entries: [{ ...good, ip: '10.8.0.0/8' }] } });
    hub.handle(worker, { type: 'timed', change: { op: 'add', list: 'authorized', entries: [{ ...good, ip: '10.8.0.2' } as never] } });
    hub.handle(worker, { type: 'timed', change: { op: 'remove', list: 'intercepted', ips: ['10.8.0.1'] } });
    expect(hub.timed.current(now).intercepted).toEqual([good]);
    expect(hub.timed.current(now).authorized).toEqual([]);
    hub.handle(worker, { type: 'sync', counts: [['bogus' as 'cc', 'shop', '10.0.0.1', 5, 1], ['cc', 'x'.repeat(65), '10.0.0.1', 5, 1], ['cc', 'shop', '10.0.0.1', 5, 1]], events: [event(1), { junk: true } as never], dropped: 2 });
    expect(hub.counts.size()).toBe(1);
    expect(hub.drainEvents()).toMatchObject({ events: [event(1)], dropped: 3 });
    hub.stop();
  });

  it('keeps one sync message of events within about 16 MiB', () => {
    const sent: FromWorker[] = [];
    const services = createClusterServices({ send: (m) => sent.push(m), syncEveryMs: 60_000 });
    const big = (n: number) => event(n, { snapshot: { headers: '', body: 'y'.repeat(1_000_000) } });
    for (let i = 0; i < 40; i++) services.emit(big(i));
    services.flush();
    const sync = sent[0] as Extract<FromWorker, { type: 'sync' }>;
    expect(sync.events).toHaveLength(16);
    expect(sync.dropped).toBe(24);
    services.stop();
  });
});
