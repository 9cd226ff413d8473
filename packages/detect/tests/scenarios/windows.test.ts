import { describe, expect, it } from 'vitest';
import { createCountWindow, SecondBuckets, TimestampRing } from '../../src/scenarios/count-window.ts';
import { DistinctWindow } from '../../src/scenarios/distinct-window.ts';
import { GroupTable } from '../../src/scenarios/group-table.ts';

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Increasing times with bursts and gaps. */
function times(seed: number, n: number, maxGapMs: number): number[] {
  const r = random(seed);
  const out: number[] = [];
  let t = 1_795_000_000_000;
  for (let i = 0; i < n; i++) {
    t += r() < 0.1 ? Math.floor(r() * maxGapMs * 5) : Math.floor(r() * maxGapMs);
    out.push(t);
  }
  return out;
}

describe('count windows agree with counting every event', () => {
  it('TimestampRing: exact to the millisecond, up to its capacity', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const windowMs = 120_000;
      const capacity = 11;
      const ring = new TimestampRing(capacity, windowMs);
      const seen: number[] = [];
      for (const t of times(seed, 2000, 15_000)) {
        seen.push(t);
        const exact = seen.filter((s) => s > t - windowMs).length;
        expect(ring.add(t, 1)).toBe(Math.min(exact, capacity));
      }
    }
  });

  it('SecondBuckets: events in the last `window` whole seconds', () => {
    for (const seed of [6, 7, 8]) {
      const windowMs = 60_000;
      const buckets = new SecondBuckets(windowMs);
      const seen: number[] = [];
      for (const t of times(seed, 3000, 400)) {
        seen.push(t);
        const second = Math.floor(t / 1000);
        const exact = seen.filter((s) => Math.floor(s / 1000) > second - 60).length;
        expect(buckets.add(t, 1)).toBe(exact);
      }
    }
  });

  it('both agree on second-resolution times (what access logs have)', () => {
    const ring = new TimestampRing(1000, 60_000);
    const buckets = new SecondBuckets(60_000);
    for (const t of times(9, 3000, 1500).map((t) => Math.floor(t / 1000) * 1000)) expect(buckets.add(t, 1)).toBe(ring.add(t, 1));
  });

  it('weights count as that many events (syslog "message repeated")', () => {
    const ring = new TimestampRing(11, 120_000);
    expect(ring.add(0, 1)).toBe(1);
    expect(ring.add(1000, 12)).toBe(11); // capped at the capacity: enough to say "more than 10"
    const buckets = new SecondBuckets(60_000);
    expect(buckets.add(0, 5)).toBe(5);
    expect(buckets.add(59_999, 5)).toBe(10);
    expect(buckets.add(60_000, 1)).toBe(6);
  });

  it('picks the smaller layout', () => {
    expect(createCountWindow(10, 120_000)).toBeInstanceOf(TimestampRing);
    expect(createCountWindow(300, 60_000)).toBeInstanceOf(SecondBuckets);
  });
});

describe('DistinctWindow', () => {
  it('counts different values seen within the window', () => {
    const w = new DistinctWindow(60_000);
    expect(w.add(0, '/a')).toBe(1);
    expect(w.add(1000, '/a')).toBe(1);
    expect(w.add(2000, '/b')).toBe(2);
    expect(w.add(59_000, '/c')).toBe(3);
    expect(w.add(61_500, '/d')).toBe(3); // /a was last seen at 1000: gone
    expect(w.firstTime()).toBe(2000);
  });
});

describe('GroupTable', () => {
  /** touch, or add when not tracked: what the detector does. */
  const use = <T>(table: GroupTable<T>, key: string, time: number, state: T): T => table.touch(key, time) ?? table.add(key, time, state);

  it('forgets a group silent for a whole window', () => {
    const table = new GroupTable<number>(100, 60_000);
    use(table, 'a', 0, 1);
    use(table, 'b', 30_000, 2);
    expect(use(table, 'a', 59_000, 9)).toBe(1); // still there
    use(table, 'c', 100_000, 3);
    expect(table.size).toBe(2); // b (last seen at 30 s) expired, a (59 s) not yet
    expect(use(table, 'b', 100_100, 9)).toBe(9); // made anew
    expect(table.evicted).toBe(0);
  });

  it('never holds more than its ceiling, dropping the stalest group', () => {
    const table = new GroupTable<string>(100, 60_000);
    for (let i = 0; i < 10_000; i++) use(table, `198.51.${i >> 8}.${i & 255}`, 1000 + i, `state ${i}`);
    expect(table.size).toBe(100);
    expect(table.evicted).toBe(9900);
    // The most recent are kept; a group touched again moves to the back.
    expect(table.touch('198.51.38.255', 20_000)).toBe('state 9983');
    expect(table.touch('198.51.0.1', 20_000)).toBeUndefined();
    for (let i = 0; i < 99; i++) table.add(`203.0.113.${i}`, 20_001, 'new');
    expect(table.touch('198.51.38.255', 20_002)).toBe('state 9983');
    expect(table.touch('198.51.39.15', 20_002)).toBeUndefined(); // the last of the rest, now dropped
  });
});
