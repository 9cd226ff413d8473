import { CappedMap } from './capped-map.ts';

/**
 * Per-address counts over a sliding minute of one-second buckets (the CC and 404-scan counter, in
 * each worker and summed in the primary), packed for many addresses: every address owns
 * a slot of 60 Uint32 counts in one shared array, plus the last second it was counted in, so it
 * costs ~240 bytes plus its Map entry instead of two typed-array objects (~1.2 KB). At most `cap`
 * addresses: past it the oldest-seen address's slot is reused (a botnet can't grow memory).
 *
 * Buckets are cleared lazily: when an address is counted at second s after `last`, the buckets of
 * the seconds in between are zeroed (all of them after a minute's silence).
 */
export class MinuteSlots {
  private readonly index: CappedMap<string, number>;
  private counts = new Uint32Array(0);
  private last = new Float64Array(0);
  private readonly free: number[] = [];
  private used = 0;
  private readonly cap: number;

  constructor(cap: number) {
    this.cap = cap;
    // Past the cap the oldest-seen address goes and its slot is reused.
    this.index = new CappedMap(cap, (_ip, slot) => this.free.push(slot));
  }

  get size(): number {
    return this.index.size;
  }

  /** Adds `n` to the address at `now` (ms) and returns its count over the minute ending now. */
  add(ip: string, now: number, n = 1): number {
    const second = Math.floor(now / 1000);
    const slot = this.slotOf(ip, second);
    // A report from more than a minute before this address's latest one has nothing left to count.
    if (second <= this.last[slot]! - 60) return this.sum(slot, this.last[slot]!);
    this.advance(slot, second);
    const at = slot * 60 + (second % 60);
    this.counts[at] = Math.min(0xffffffff, this.counts[at]! + n);
    return this.sum(slot, Math.max(second, this.last[slot]!));
  }

  /** The address's count over the minute ending at `now` (reading does not make it recent). */
  count(ip: string, now: number): number {
    const slot = this.index.get(ip);
    return slot === undefined ? 0 : this.sum(slot, Math.floor(now / 1000));
  }

  /**
   * When the address's count falls to `limit` or below if nothing more comes (ms): each bucket
   * leaves the window 60 s after its second, oldest first. 0 when it is not over `limit` now.
   */
  overUntil(ip: string, now: number, limit: number): number {
    const slot = this.index.get(ip);
    if (slot === undefined) return 0;
    const second = Math.floor(now / 1000);
    let sum = this.sum(slot, second);
    if (sum <= limit) return 0;
    // Oldest second first: second-59 … second.
    for (let s = second - 59; s <= second; s++) {
      sum -= this.at(slot, s);
      if (sum <= limit) return (s + 60) * 1000;
    }
    return (second + 60) * 1000;
  }

  delete(ip: string): void {
    const slot = this.index.get(ip);
    if (slot === undefined) return;
    this.index.delete(ip);
    this.free.push(slot);
  }

  /** Forgets addresses not counted for a minute. */
  prune(now: number): void {
    const second = Math.floor(now / 1000);
    for (const [ip, slot] of this.index) if (this.last[slot]! <= second - 60) this.delete(ip);
  }

  private slotOf(ip: string, second: number): number {
    let slot = this.index.get(ip);
    if (slot !== undefined) return slot;
    // Inserting may evict the oldest address, whose slot then goes to the free list: take a slot after.
    this.index.set(ip, -1);
    slot = this.free.pop() ?? this.grow();
    this.index.set(ip, slot);
    this.counts.fill(0, slot * 60, slot * 60 + 60);
    this.last[slot] = second;
    return slot;
  }

  private grow(): number {
    if (this.used === this.last.length) {
      const size = Math.min(Math.max(64, this.last.length * 2), Math.max(this.cap, 64));
      const counts = new Uint32Array(size * 60);
      counts.set(this.counts);
      const last = new Float64Array(size);
      last.set(this.last);
      this.counts = counts;
      this.last = last;
    }
    return this.used++;
  }

  /** Zeroes the buckets of the seconds since the address was last counted. */
  private advance(slot: number, second: number): void {
    const last = this.last[slot]!;
    if (second <= last) return;
    if (second - last >= 60) this.counts.fill(0, slot * 60, slot * 60 + 60);
    else for (let s = last + 1; s <= second; s++) this.counts[slot * 60 + (s % 60)] = 0;
    this.last[slot] = second;
  }

  /** The count of second `s` (0 when that second is not among the last 60 the slot holds). */
  private at(slot: number, s: number): number {
    const last = this.last[slot]!;
    return s <= last && s > last - 60 ? this.counts[slot * 60 + (s % 60)]! : 0;
  }

  /** The sum over the minute ending at `second`. */
  private sum(slot: number, second: number): number {
    const last = this.last[slot]!;
    if (second <= last) {
      let total = 0;
      for (let i = slot * 60, end = i + 60; i < end; i++) total += this.counts[i]!;
      return total;
    }
    let total = 0;
    for (let s = Math.max(second - 59, last - 59); s <= last; s++) total += this.counts[slot * 60 + (s % 60)]!;
    return total;
  }
}
