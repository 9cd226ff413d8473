import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import type { EventInput } from '@rampart/contracts';
import { openSqlite } from '@rampart/sqlite';
import { openCounters } from '../src/counters.ts';
import { eventWriter } from '../src/event-writer.ts';
import { migrations } from '../src/migrations.ts';
import { openRollups } from '../src/rollups.ts';
import { openEventStore, type EventStoreOptions } from '../src/index.ts';
import { day, hour, T0, tempPath } from './helpers.ts';

/*
 * Stores written before the rollups existed are counted in the background after the upgrade. The
 * reference is the same events written to a store that kept rollups from the start: every rollup
 * row and the attack total must be equal, after a stop mid-way and with events arriving meanwhile.
 */
const ips = ['203.0.113.7', '198.51.100.9', '192.0.2.1', '10.1.2.3', '203.0.113.99', '198.51.100.200', '192.0.2.77'];
const areas: Record<string, string> = { '203.0.113.7': 'US', '198.51.100.9': 'CN-GD', '192.0.2.1': 'DE', '203.0.113.99': 'CN', '192.0.2.77': 'CN-BJ' };
const areaOf = (ip: string) => areas[ip] ?? (ip.startsWith('10.') ? 'internal' : '');
const dayStart = (t: number) => new Date(new Date(t).getFullYear(), new Date(t).getMonth(), new Date(t).getDate()).getTime();

/**
 * `n` events over 9 days: attacks (foldable), challenges, admin actions. An address's events of one
 * day fall in one hour, so a folded row's copies share its hour bucket (the back-fill counts a
 * folded row at its own time; the live path at each copy's time).
 */
function oldEvents(n: number, seed = 0): EventInput[] {
  const out: EventInput[] = [];
  for (let i = 0; i < n; i++) {
    const k = i + seed;
    const j = k % ips.length;
    const ip = ips[j]!;
    const time = dayStart(T0 - (k % 9) * day) + j * hour + (k % 50) * 60_000;
    const pick = k % 5;
    if (pick < 2) out.push({ kind: 'firewall.blocked', module: 'firewall', level: 'warning', source: 'firewall', ip, params: { reason: k % 2 ? 'port_scan' : 'ssh', minutes: 10 }, time });
    else if (pick === 2) out.push({ kind: 'website.attack', module: 'website', level: 'critical', source: 'gateway', ip, params: { attack: 'sqli', site: 'a' }, time });
    else if (pick === 3) out.push({ kind: 'website.challenge', module: 'website', level: 'info', source: 'gateway', ip, params: { rule: 'cc', site: 'a' }, time });
    else out.push({ kind: 'panel.action', module: 'system', level: 'info', source: 'panel', account: 'admin', params: { action: 'save', result: 'ok' }, time });
  }
  return out;
}

/**
 * Writes events the way stores did before the back-fill: schema up to migration 3, `old` without
 * rollup counting (before the rollups), `counted` with the live counting of the build that added them.
 */
function writeOldStore(path: string, old: EventInput[], counted: EventInput[] = []): void {
  const db = openSqlite(path, migrations.slice(0, 3), 'event store');
  const counters = openCounters(db);
  const rollups = openRollups(db, counters, areaOf, () => T0);
  let live = false;
  const writer = eventWriter(db, counters, {
    now: () => T0, flushIntervalMs: 100, maxBatch: 1_000_000, maxQueued: 1_000_000, mode: 'simple', onStored: undefined, onError: (e) => { throw e; },
    inTransaction: (batch) => {
      if (live) rollups.add(batch);
    },
  });
  writer.append(old);
  writer.flush();
  live = true;
  writer.append(counted);
  writer.flush();
  writer.stop();
  db.close();
}

/** Every rollup row (the live minute table aside: back-filled copies sit on their row's minute) and the attack total. */
function rollupRows(path: string) {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const all = (sql: string) => db.prepare(sql).all().map((r) => ({ ...r }));
    return {
      hour: all('SELECT * FROM rollup_hour ORDER BY bucket, module, kind, area'),
      day: all('SELECT * FROM rollup_day ORDER BY bucket, module, kind, area'),
      ip: all('SELECT * FROM rollup_ip_hour ORDER BY bucket, ip'),
      attacks: all("SELECT value FROM counters WHERE name = 'attacks'"),
    };
  } finally {
    db.close();
  }
}

const storeOptions = (over: EventStoreOptions = {}): EventStoreOptions => ({ now: () => T0, mode: 'simple', areaOf, maxBatch: 1_000_000, maxQueued: 1_000_000, ...over });

/** The same events, counted live from the start. */
function reference(events: EventInput[][]): ReturnType<typeof rollupRows> {
  const path = tempPath();
  const store = openEventStore(path, storeOptions());
  for (const batch of events) {
    store.append(batch);
    store.flush();
  }
  store.close();
  return rollupRows(path);
}

describe('rollup back-fill', () => {
  it('counts an old store in the background after the upgrade, equal to counting from the start', async () => {
    const events = oldEvents(3000);
    const path = tempPath();
    writeOldStore(path, events);
    const store = openEventStore(path, storeOptions({ backfillBatch: 100 }));
    expect(store.backfill.progress().done).toBe(false);
    // In the background: the first batches run on later turns of the event loop.
    while (!store.backfill.progress().done) await new Promise((r) => setImmediate(r));
    const panels = store.dynamic.overview(T0);
    store.close();
    const want = reference([events]);
    expect(want.hour.length).toBeGreaterThan(50);
    expect(rollupRows(path)).toEqual(want);
    // A spot check against the events themselves: attacks are 3 in 5 of them, each counted once.
    expect(panels.counts.total).toBe(1800);
    expect(panels.counts.today).toBeGreaterThan(0);
  });

  it('resumes after a stop mid-way, and counts events that arrive meanwhile once', () => {
    const old = oldEvents(3000);
    const path = tempPath();
    writeOldStore(path, old);
    const first = openEventStore(path, storeOptions({ backfill: false, backfillBatch: 100 }));
    expect(first.backfill.step()).toBe(false);
    const { cursor, untilId } = first.backfill.progress();
    expect(cursor).toBeGreaterThan(0);
    expect(cursor).toBeLessThan(untilId);
    // New events: repeats folded into old rows (same day, address, attack) and new rows, some of
    // them before the cursor's time and some after.
    const arriving = oldEvents(700, 3000);
    first.append(arriving);
    first.flush();
    first.close(); // the agent stopped after one batch

    const second = openEventStore(path, storeOptions({ backfill: false, backfillBatch: 100 }));
    expect(second.backfill.progress().cursor).toBe(cursor);
    let batches = 0;
    while (!second.backfill.step()) batches++;
    expect(batches).toBeGreaterThan(2);
    // Done is remembered: a third open has nothing to count.
    second.close();
    const third = openEventStore(path, storeOptions({ backfill: false }));
    expect(third.backfill.progress().done).toBe(true);
    expect(third.backfill.step()).toBe(true);
    third.close();

    expect(rollupRows(path)).toEqual(reference([old, arriving]));
  });

  it('on a store whose rollups already counted newer events, counts only the events older than their oldest hour', () => {
    const old = oldEvents(1000).map((e) => ({ ...e, time: e.time! - 10 * day }));
    const counted = oldEvents(1000, 7);
    const path = tempPath();
    writeOldStore(path, old, counted);
    const store = openEventStore(path, storeOptions({ backfill: false, backfillBatch: 100 }));
    while (!store.backfill.step());
    store.close();
    expect(rollupRows(path)).toEqual(reference([old, counted]));
  });

  it('leaves a store without old events with nothing to back-fill', () => {
    const path = tempPath();
    const store = openEventStore(path, storeOptions({ backfill: false }));
    expect(store.backfill.progress()).toEqual({ cursor: 0, untilId: 0, done: true });
    store.append(oldEvents(50));
    store.close();
    const again = openEventStore(path, storeOptions({ backfill: false }));
    expect(again.backfill.progress().done).toBe(true);
    again.close();
    expect(rollupRows(path)).toEqual(reference([oldEvents(50)]));
  });
});
