/**
 * Per-group state with a ceiling. Groups sit in a Map in order of their last event, so the front
 * holds the stalest: a group silent for a whole window is gone (its events have all expired), and
 * past `maxGroups` the stalest one is dropped, so a flood of spoofed sources costs bounded memory.
 */
export class GroupTable<T> {
  readonly #groups = new Map<string, { state: T; last: number }>();
  readonly #maxGroups: number;
  readonly #windowMs: number;
  #expiredAt = -Infinity;
  /** Groups dropped for room (not for expiry). */
  evicted = 0;

  constructor(maxGroups: number, windowMs: number) {
    this.#maxGroups = maxGroups;
    this.#windowMs = windowMs;
  }

  get size(): number {
    return this.#groups.size;
  }

  /** The state of `key`, marked as seen at `time`; undefined for a group not tracked (yet, or any more). */
  touch(key: string, time: number): T | undefined {
    this.#expire(time);
    const entry = this.#groups.get(key);
    if (!entry) return undefined;
    // Re-inserted, so the Map stays in last-event order.
    this.#groups.delete(key);
    if (time > entry.last) entry.last = time;
    this.#groups.set(key, entry);
    return entry.state;
  }

  /** Starts tracking `key`, making room by dropping the stalest group if needed. */
  add(key: string, time: number, state: T): T {
    this.#groups.set(key, { state, last: time });
    if (this.#groups.size > this.#maxGroups) {
      this.#groups.delete(this.#groups.keys().next().value!);
      this.evicted++;
    }
    return state;
  }

  delete(key: string): void {
    this.#groups.delete(key);
  }

  // Once a second of event time is often enough: a group lingering a second past its window holds only expired events.
  #expire(time: number): void {
    if (time - this.#expiredAt < 1000) return;
    this.#expiredAt = time;
    for (const [key, entry] of this.#groups) {
      if (entry.last > time - this.#windowMs) break;
      this.#groups.delete(key);
    }
  }
}
