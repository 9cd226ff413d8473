/**
 * Distinct values seen from one group within the window, each with when it was last seen. The map
 * is kept in last-seen order, so expired values are always at its front. It never holds more than
 * threshold + 1 live values: at that point the group overflows and is dropped.
 */
export class DistinctWindow {
  readonly #lastSeen = new Map<string, number>();
  readonly #windowMs: number;

  constructor(windowMs: number) {
    this.#windowMs = windowMs;
  }

  /** Records `value` at `time`; returns how many different values are in the window now. */
  add(time: number, value: string): number {
    this.#lastSeen.delete(value);
    this.#lastSeen.set(value, time);
    for (const [v, seen] of this.#lastSeen) {
      if (seen > time - this.#windowMs) break;
      this.#lastSeen.delete(v);
    }
    return this.#lastSeen.size;
  }

  firstTime(): number {
    for (const seen of this.#lastSeen.values()) return seen;
    return 0;
  }
}
