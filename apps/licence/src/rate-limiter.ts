export interface RateLimitOptions {
  /** Requests allowed per client address in each window. */
  max: number;
  windowMs: number;
}

export const defaultRateLimit: RateLimitOptions = { max: 30, windowMs: 60_000 };

/** Above this many tracked clients, stale windows are swept (and, if still full, the oldest dropped) so a spray of addresses cannot grow memory without bound. */
const maxTrackedClients = 100_000;

/** Fixed-window request counter per client address, kept in memory. */
export class RateLimiter {
  readonly #options: RateLimitOptions;
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(options: RateLimitOptions) {
    if (!(options.max > 0) || !(options.windowMs > 0)) throw new RangeError('rate limit max and windowMs must be positive');
    this.#options = options;
  }

  /** Counts one request from `key`; false once it is over the limit for the current window. */
  allow(key: string, now: number): boolean {
    const window = this.#windows.get(key);
    if (!window || now - window.start >= this.#options.windowMs) {
      if (!window && this.#windows.size >= maxTrackedClients) this.#makeRoom(now);
      this.#windows.set(key, { start: now, count: 1 });
      return true;
    }
    window.count += 1;
    return window.count <= this.#options.max;
  }

  #makeRoom(now: number): void {
    for (const [key, window] of this.#windows) {
      if (now - window.start >= this.#options.windowMs) this.#windows.delete(key);
    }
    const oldest = this.#windows.keys().next();
    if (this.#windows.size >= maxTrackedClients && !oldest.done) this.#windows.delete(oldest.value);
  }
}
