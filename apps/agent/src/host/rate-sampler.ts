import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import type { NetRates } from '@rampart/contracts';
import { parseNetDev } from './net-dev.ts';
import { computeNetRates, type NetSample } from './net-rates.ts';

export interface RateSamplerOptions {
  /** Where the counters come from; tests point this at a fixture file. */
  netDevPath?: string;
  intervalMs?: number;
  log?: (line: string) => void;
}

/**
 * Samples /proc/net/dev on a timer and keeps the rate between the last two samples.
 * Rates need two samples, so a caller that arrives first waits for the first one (bounded).
 */
export class RateSampler {
  readonly #netDevPath: string;
  readonly #intervalMs: number;
  readonly #log: (line: string) => void;
  #timer: NodeJS.Timeout | undefined;
  #previous: NetSample | undefined;
  #latest: NetRates | undefined;
  #waiters = new Set<(rates: NetRates) => void>();
  #lastError = '';

  constructor(options: RateSamplerOptions = {}) {
    this.#netDevPath = options.netDevPath ?? '/proc/net/dev';
    this.#intervalMs = options.intervalMs ?? 1000;
    this.#log = options.log ?? ((line) => console.error(line));
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.#sample(), this.#intervalMs);
    // The sampler alone must not keep the process alive.
    this.#timer.unref();
    void this.#sample();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** The latest rates; waits up to `waitMs` for the first if none yet, then rejects. */
  current(waitMs = 1500): Promise<NetRates> {
    if (this.#latest) return Promise.resolve(this.#latest);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(onRates);
        reject(new Error(`network rates not available yet${this.#lastError ? `: ${this.#lastError}` : ''}`));
      }, waitMs);
      const onRates = (rates: NetRates): void => {
        clearTimeout(timer);
        resolve(rates);
      };
      this.#waiters.add(onRates);
    });
  }

  async #sample(): Promise<void> {
    let sample: NetSample;
    try {
      const text = await readFile(this.#netDevPath, 'utf8');
      sample = { at: Date.now(), monotonicMs: performance.now(), counters: parseNetDev(text) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // Log a failure once, not every second.
      if (message !== this.#lastError) this.#log(`rates: cannot read ${this.#netDevPath}: ${message}`);
      this.#lastError = message;
      return;
    }
    this.#lastError = '';
    // A sample whose read finished after stop() is dropped.
    if (!this.#timer) return;
    const previous = this.#previous;
    this.#previous = sample;
    if (!previous || sample.monotonicMs <= previous.monotonicMs) return;
    this.#latest = computeNetRates(previous, sample);
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const resolve of waiters) resolve(this.#latest);
  }
}
