import { readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import type { Db } from '@rampart/sqlite';
import type { NetRates, PerformancePeriod, PerformancePoint, PerformanceSeries } from '@rampart/contracts';
import { cpuPercent, parseCpuTimes, type CpuTimes } from './cpu-stat.ts';
import { readDisks } from './disks.ts';
import { parseMeminfo } from './meminfo.ts';
import { openPerformanceDb, pointsSince, prune, rollUpHour, upsertPoint } from './performance-db.ts';

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
/** 10 s samples; the last hour of them in memory (360 points). */
export const sampleMs = 10 * second;
const ringSize = hour / sampleMs;

export type Sample = Omit<PerformancePoint, 'at'>;
const fields = ['cpu', 'memory', 'load', 'rx', 'tx', 'disk'] as const;

function average(at: number, samples: readonly Sample[]): PerformancePoint {
  const point = { at, cpu: 0, memory: 0, load: 0, rx: 0, tx: 0, disk: 0 };
  for (const s of samples) for (const f of fields) point[f] += s[f];
  for (const f of fields) point[f] /= samples.length;
  return point;
}

export interface PerformanceHistoryOptions {
  dbPath: string;
  /** Reads one sample of the host; the timer calls it every `sampleMs`. */
  read?: () => Promise<Sample>;
  now?: () => number;
  log?: (line: string) => void;
}

/**
 * Host performance over time for GET /home/performance: a ring of 10 s samples for the last hour
 * (memory only), per-minute averages for 24 h and per-hour averages for 7 d in SQLite.
 */
export class PerformanceHistory {
  readonly #db: Db;
  readonly #read: (() => Promise<Sample>) | undefined;
  readonly #now: () => number;
  readonly #log: (line: string) => void;
  #ring: PerformancePoint[] = [];
  #minute: { start: number; samples: Sample[] } | undefined;
  #timer: NodeJS.Timeout | undefined;
  #lastError = '';

  constructor(options: PerformanceHistoryOptions) {
    this.#db = openPerformanceDb(options.dbPath);
    this.#read = options.read;
    this.#now = options.now ?? Date.now;
    this.#log = options.log ?? ((line) => console.error(line));
  }

  start(): void {
    if (this.#timer || !this.#read) return;
    this.#timer = setInterval(() => void this.#tick(), sampleMs);
    this.#timer.unref();
  }

  async #tick(): Promise<void> {
    try {
      this.record({ at: this.#now(), ...(await this.#read!()) });
      this.#lastError = '';
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // Said once, not every 10 s.
      if (message !== this.#lastError) this.#log(`performance: cannot sample the host: ${message}`);
      this.#lastError = message;
    }
  }

  /** Adds one sample; a finished minute is written (and its hour rolled up, old rows pruned). */
  record(point: PerformancePoint): void {
    this.#ring.push(point);
    if (this.#ring.length > ringSize) this.#ring.splice(0, this.#ring.length - ringSize);
    const start = Math.floor(point.at / minute) * minute;
    if (this.#minute && this.#minute.start !== start) this.#flush();
    this.#minute ??= { start, samples: [] };
    this.#minute.samples.push(point);
  }

  #flush(): void {
    const done = this.#minute;
    this.#minute = undefined;
    if (!done || done.samples.length === 0) return;
    upsertPoint(this.#db, 'perf_minute', average(done.start, done.samples));
    rollUpHour(this.#db, Math.floor(done.start / hour) * hour);
    prune(this.#db, 'perf_minute', done.start - 24 * hour);
    prune(this.#db, 'perf_hour', done.start - 7 * 24 * hour);
  }

  series(period: PerformancePeriod): PerformanceSeries {
    const now = this.#now();
    if (period === '1h') return { period, step: sampleMs / second, points: this.#ring.filter((p) => p.at > now - hour) };
    if (period === '24h') return { period, step: minute / second, points: pointsSince(this.#db, 'perf_minute', now - 24 * hour) };
    return { period, step: hour / second, points: pointsSince(this.#db, 'perf_hour', now - 7 * 24 * hour) };
  }

  close(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    // The minute in progress is kept: a restart loses at most the samples of the current minute's tail.
    this.#flush();
    this.#db.close();
  }
}

/** The real host: CPU from /proc/stat (against the previous reading), memory, 1-minute load, the latest network rates, the fullest disk. */
export function hostSampleReader(rates: () => Promise<NetRates>): () => Promise<Sample> {
  let previous: CpuTimes | undefined;
  return async () => {
    // The first sample has no earlier reading: take one 200 ms before rather than report 0 %.
    if (!previous) {
      previous = parseCpuTimes(await readFile('/proc/stat', 'utf8'));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const times = parseCpuTimes(await readFile('/proc/stat', 'utf8'));
    const cpu = cpuPercent(previous, times);
    previous = times;
    const memory = parseMeminfo(await readFile('/proc/meminfo', 'utf8'));
    const disks = await readDisks().catch(() => []);
    const disk = disks.reduce((max, d) => (d.size > 0 ? Math.max(max, (d.used / d.size) * 100) : max), 0);
    const net = await rates().catch(() => ({ rx: 0, tx: 0 }));
    return {
      cpu,
      memory: memory.total > 0 ? Math.min(100, (memory.used / memory.total) * 100) : 0,
      load: loadavg()[0] ?? 0,
      rx: net.rx,
      tx: net.tx,
      disk: Math.min(100, disk),
    };
  };
}
