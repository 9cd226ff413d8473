import { describe, expect, it } from 'vitest';
import { localDay, type EventInput } from '@rampart/contracts';
import { openEventStore } from '../src/index.ts';
import { day, hour, openTemp, T0, tempPath } from './helpers.ts';

const areas: Record<string, string> = { '203.0.113.7': 'US', '198.51.100.9': 'CN' };
const areaOf = (ip: string) => areas[ip] ?? (ip.startsWith('10.') ? 'internal' : '');

const block = (over: Partial<EventInput> = {}): EventInput => ({
  kind: 'firewall.blocked', module: 'firewall', level: 'warning', source: 'firewall', ip: '203.0.113.7', params: { reason: 'port_scan', minutes: 10 }, time: T0, ...over,
});
const webAttack = (over: Partial<EventInput> = {}): EventInput => ({
  kind: 'website.attack', module: 'website', level: 'critical', source: 'gateway', ip: '198.51.100.9', params: { attack: 'sqli', site: 'a' }, time: T0, ...over,
});
/** A security event that stopped nothing: counted as a security event, not as an attack. */
const challenge = (over: Partial<EventInput> = {}): EventInput => ({
  kind: 'website.challenge', module: 'website', level: 'info', source: 'gateway', ip: '198.51.100.9', params: { rule: 'cc', site: 'a' }, time: T0, ...over,
});

describe('situational-awareness rollups', () => {
  it('counts attacks per day, hour, minute, area and address as events are stored, folded copies included', () => {
    const { store } = openTemp({ mode: 'simple', areaOf, maxBatch: 100_000 });
    store.append([
      // Today (T0 is noon): 3 port-scan blocks from one address fold into one row but count 3 times.
      block(), block({ time: T0 + 1000 }), block({ time: T0 - 2 * hour }),
      webAttack({ time: T0 - 30 * 60_000 }),
      block({ ip: '10.1.2.3', time: T0 - 5 * 60_000 }),
      challenge(), challenge(),
      // An administrative event is no security event at all.
      { kind: 'panel.action', module: 'system', level: 'info', source: 'panel', account: 'admin', params: { action: 'save', result: 'ok' }, time: T0 },
      // Yesterday, and five days ago.
      webAttack({ time: T0 - day }), webAttack({ time: T0 - day - hour }),
      block({ time: T0 - 5 * day }),
      // Ten days ago: in the total, outside the trend.
      block({ time: T0 - 10 * day }),
    ]);
    const d = store.dynamic;
    expect(store.stats().events).toBeLessThan(13);
    expect(d.counts(T0)).toEqual({ today: 5, yesterday: 2, total: 9 });
    const trend = d.trend(T0);
    expect(trend.map((t) => t.day)).toEqual(Array.from({ length: 7 }, (_, i) => localDay(T0 - (6 - i) * day)));
    expect(trend.map((t) => t.count)).toEqual([0, 1, 0, 0, 0, 2, 5]);
    // The last 24 h: hours from 13:00 yesterday, so yesterday's noon attacks are out.
    expect(d.report(T0)).toEqual([
      { module: 'firewall', kind: 'firewall.blocked', count: 4 },
      { module: 'website', kind: 'website.attack', count: 1 },
    ]);
    expect(d.security(T0)).toEqual([
      { module: 'firewall', kind: 'firewall.blocked', count: 4 },
      { module: 'website', kind: 'website.challenge', count: 2 },
      { module: 'website', kind: 'website.attack', count: 1 },
    ]);
    expect(d.areas(T0)).toEqual([{ area: 'US', count: 3 }, { area: 'CN', count: 1 }, { area: 'internal', count: 1 }]);
    expect(d.ips(T0)).toEqual([
      { ip: '203.0.113.7', area: 'US', count: 3 },
      { ip: '10.1.2.3', area: 'internal', count: 1 },
      { ip: '198.51.100.9', area: 'CN', count: 1 },
    ]);
    const latest = d.latest();
    expect(latest).toHaveLength(9);
    expect(latest.slice(0, 3).map((a) => [a.time, a.kind, a.ip])).toEqual([
      [T0 + 1000, 'firewall.blocked', '203.0.113.7'],
      [T0, 'firewall.blocked', '203.0.113.7'],
      [T0 - 5 * 60_000, 'firewall.blocked', '10.1.2.3'],
    ]);
    const minutes = d.minutes(T0 + 1000);
    expect(minutes).toHaveLength(60);
    expect(minutes.at(-1)).toEqual({ time: T0, count: 2 });
    expect(minutes.reduce((n, m) => n + m.count, 0)).toBe(4);
  });

  it('keeps the newest 30 attacks in the live list however many are written', () => {
    const { store } = openTemp({ mode: 'full', areaOf });
    store.append(Array.from({ length: 250 }, (_, i) => block({ time: T0 + i })));
    const latest = store.dynamic.latest();
    expect(latest).toHaveLength(30);
    expect(latest[0]!.time).toBe(T0 + 249);
    expect(store.dynamic.counts(T0).today).toBe(250);
  });

  it('drops rollups with the events at retention and keeps them across a reopen', () => {
    const path = tempPath();
    const store = openEventStore(path, { now: () => T0, areaOf });
    store.append([block({ time: T0 - 3 * day }), block({ time: T0 - day }), webAttack()]);
    expect(store.dynamic.counts(T0).total).toBe(3);
    store.purgeBefore(new Date(T0 - 2 * day).setHours(0, 0, 0, 0));
    expect(store.dynamic.counts(T0)).toEqual({ today: 1, yesterday: 1, total: 2 });
    expect(store.dynamic.trend(T0).map((t) => t.count)).toEqual([0, 0, 0, 0, 0, 1, 1]);
    store.close();
    const again = openEventStore(path, { now: () => T0, areaOf });
    try {
      expect(again.dynamic.counts(T0)).toEqual({ today: 1, yesterday: 1, total: 2 });
      expect(again.dynamic.ips(T0)).toEqual([{ ip: '198.51.100.9', area: 'CN', count: 1 }]);
    } finally {
      again.close();
    }
  });

  it('calls private addresses internal without any geo data', () => {
    const { store } = openTemp();
    store.append([block({ ip: '192.168.1.20' }), block({ ip: 'fd00::5' }), block({ ip: '8.8.8.8' })]);
    expect(store.dynamic.areas(T0)).toEqual([{ area: 'internal', count: 2 }, { area: '', count: 1 }]);
  });
});
