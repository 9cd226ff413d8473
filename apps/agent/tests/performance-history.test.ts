import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { performanceSeriesSchema } from '@rampart/contracts';
import { hostSampleReader, PerformanceHistory, sampleMs, type Sample } from '../src/host/performance-history.ts';

const dirs: string[] = [];
const tempDb = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rampart-perf-'));
  dirs.push(dir);
  return path.join(dir, 'performance.db');
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const hour = 3_600_000;
const sample = (cpu: number): Sample => ({ cpu, memory: 50, load: 0.5, rx: 1000, tx: 2000, disk: 40 });

describe('host performance history', () => {
  it('keeps the last hour at 10 s in memory, minute and hour averages on disk that survive a restart', () => {
    const dbPath = tempDb();
    const clock = { now: Date.UTC(2026, 0, 1, 0, 0, 0) };
    const start = clock.now;
    let history = new PerformanceHistory({ dbPath, now: () => clock.now });
    // Two hours of samples: CPU 10 % in the first hour, 30 % in the second.
    for (let at = start; at < start + 2 * hour; at += sampleMs) {
      clock.now = at;
      history.record({ at, ...sample(at < start + hour ? 10 : 30) });
    }
    const oneHour = performanceSeriesSchema.parse(history.series('1h'));
    // Bounded: one hour of 10 s samples, the newest last.
    expect(oneHour.step).toBe(10);
    expect(oneHour.points).toHaveLength(360);
    expect(oneHour.points.at(-1)!.at).toBe(clock.now);
    expect(oneHour.points.every((p) => p.cpu === 30)).toBe(true);

    const day = history.series('24h');
    expect(day.step).toBe(60);
    // Every finished minute (the one in progress is not written until it ends).
    expect(day.points).toHaveLength(119);
    expect(day.points[0]).toMatchObject({ at: start, cpu: 10, memory: 50, rx: 1000, tx: 2000, disk: 40 });

    history.close();
    // A restart: the minute in progress was written on close; the memory ring starts empty.
    clock.now += sampleMs;
    history = new PerformanceHistory({ dbPath, now: () => clock.now });
    expect(history.series('1h').points).toEqual([]);
    expect(history.series('24h').points).toHaveLength(120);
    const week = history.series('7d');
    expect(week.step).toBe(3600);
    expect(week.points.map((p) => [p.at - start, p.cpu])).toEqual([[0, 10], [hour, 30]]);

    // A day later the minutes of the first day are pruned, the hours are kept for 7 days.
    clock.now = start + 26 * hour;
    history.record({ at: clock.now, ...sample(50) });
    clock.now += 60_000;
    history.record({ at: clock.now, ...sample(50) });
    expect(history.series('24h').points.map((p) => p.cpu)).toEqual([50]);
    expect(history.series('7d').points.map((p) => p.cpu)).toEqual([10, 30, 50]);
    history.close();
  });

  it('reads real host figures from /proc', async () => {
    const read = hostSampleReader(async () => ({ rx: 5, tx: 7, at: Date.now() }));
    const s = await read();
    expect(s.cpu).toBeGreaterThanOrEqual(0);
    expect(s.cpu).toBeLessThanOrEqual(100);
    expect(s.memory).toBeGreaterThan(0);
    expect(s.disk).toBeGreaterThan(0);
    expect([s.rx, s.tx]).toEqual([5, 7]);
  });
});
