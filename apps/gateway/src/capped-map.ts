/**
 * A Map of at most `cap` keys: past the cap the oldest-inserted key goes (updating a key keeps its
 * place). Used for everything an attacker can grow by sending from many addresses.
 *
 * Why not a plain Map and `map.keys().next()` for the oldest: V8 leaves a deleted entry as a hole
 * until the table is rebuilt, and iteration walks the holes, so with a botnet cycling through more
 * addresses than the cap every eviction scanned tens of thousands of holes (measured: ~100 µs per
 * insertion at 800k insertions over a 100k cap). Here the insertion order is a queue of
 * (key, sequence) beside the Map; stale queue entries (deleted or re-inserted keys) are skipped
 * once and the queue is compacted, so eviction is O(1) amortized.
 */
export class CappedMap<K, V> {
  private readonly map = new Map<K, { value: V; seq: number }>();
  private queue: { key: K; seq: number }[] = [];
  private head = 0;
  private seq = 0;
  private readonly cap: number;
  private readonly onEvict: ((key: K, value: V) => void) | undefined;

  constructor(cap: number, onEvict?: (key: K, value: V) => void) {
    this.cap = Math.max(1, cap);
    this.onEvict = onEvict;
  }

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    return this.map.get(key)?.value;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  set(key: K, value: V): void {
    const current = this.map.get(key);
    if (current) {
      current.value = value;
      return;
    }
    while (this.map.size >= this.cap && this.evictOldest());
    const seq = ++this.seq;
    this.map.set(key, { value, seq });
    this.queue.push({ key, seq });
    this.compact();
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
    this.queue = [];
    this.head = 0;
  }

  *entries(): IterableIterator<[K, V]> {
    for (const [key, { value }] of this.map) yield [key, value];
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }

  *values(): IterableIterator<V> {
    for (const { value } of this.map.values()) yield value;
  }

  private evictOldest(): boolean {
    while (this.head < this.queue.length) {
      const { key, seq } = this.queue[this.head++]!;
      const current = this.map.get(key);
      if (current && current.seq === seq) {
        this.map.delete(key);
        this.onEvict?.(key, current.value);
        return true;
      }
    }
    return false;
  }

  /** Drops consumed and stale queue entries once they outnumber the live keys. */
  private compact(): void {
    const pending = this.queue.length - this.head;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    } else if (pending > 2 * this.map.size + 1024) {
      this.queue = this.queue.slice(this.head).filter(({ key, seq }) => this.map.get(key)?.seq === seq);
      this.head = 0;
    }
  }
}
