/**
 * Sliding-window event counts for one group. Two layouts, whichever is smaller for the scenario:
 * the last threshold + 1 timestamps (enough to tell whether more than `threshold` fall inside the
 * window), or one counter per second of the window. 10 in 120 s keeps 11 numbers; 300 in 60 s
 * keeps 60.
 */
export interface CountWindow {
  /** Adds `weight` events at `time` (ms, not earlier than the last); returns how many are in the window now. */
  add(time: number, weight: number): number;
  /** Time of the oldest event still in the window. */
  firstTime(): number;
}

export function createCountWindow(threshold: number, windowMs: number): CountWindow {
  return threshold + 1 <= Math.ceil(windowMs / 1000) ? new TimestampRing(threshold + 1, windowMs) : new SecondBuckets(windowMs);
}

/** Events in (time - windowMs, time], to the millisecond. */
export class TimestampRing implements CountWindow {
  readonly #times: Float64Array;
  readonly #windowMs: number;
  #head = 0;
  #length = 0;

  constructor(capacity: number, windowMs: number) {
    this.#times = new Float64Array(capacity);
    this.#windowMs = windowMs;
  }

  add(time: number, weight: number): number {
    const capacity = this.#times.length;
    // Past the capacity only the newest timestamps matter, and they are all `time`.
    for (let i = 0; i < Math.min(weight, capacity); i++) {
      if (this.#length === capacity) this.#head = (this.#head + 1) % capacity;
      else this.#length++;
      this.#times[(this.#head + this.#length - 1) % capacity] = time;
    }
    while (this.#length > 0 && this.#times[this.#head]! <= time - this.#windowMs) {
      this.#head = (this.#head + 1) % capacity;
      this.#length--;
    }
    return this.#length;
  }

  firstTime(): number {
    return this.#times[this.#head]!;
  }
}

/** Events whose second is one of the last `window` seconds, the current one included. */
export class SecondBuckets implements CountWindow {
  readonly #counts: Uint32Array;
  #total = 0;
  #lastSecond = -Infinity;

  constructor(windowMs: number) {
    this.#counts = new Uint32Array(Math.max(1, Math.ceil(windowMs / 1000)));
  }

  add(time: number, weight: number): number {
    const size = this.#counts.length;
    const second = Math.floor(time / 1000);
    if (second - this.#lastSecond >= size) {
      this.#counts.fill(0);
      this.#total = 0;
    } else {
      // Empty the slots of the seconds that just left the window.
      for (let s = this.#lastSecond + 1; s <= second; s++) {
        const slot = s % size;
        this.#total -= this.#counts[slot]!;
        this.#counts[slot] = 0;
      }
    }
    if (second > this.#lastSecond) this.#lastSecond = second;
    this.#counts[this.#lastSecond % size]! += weight;
    this.#total += weight;
    return this.#total;
  }

  firstTime(): number {
    const size = this.#counts.length;
    for (let s = this.#lastSecond - size + 1; s <= this.#lastSecond; s++) if (this.#counts[s % size]) return s * 1000;
    return this.#lastSecond * 1000;
  }
}
