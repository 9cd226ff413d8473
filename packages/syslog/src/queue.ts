/**
 * First in, first out, with a fixed capacity: pushing onto a full queue evicts the oldest entry.
 * A ring buffer, so neither end costs more as the queue fills (Array#shift can).
 */
export class BoundedQueue<T> {
  readonly capacity: number;
  #items: (T | undefined)[];
  #head = 0;
  #length = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`queue capacity must be a positive integer, not ${capacity}`);
    this.capacity = capacity;
    this.#items = new Array<T | undefined>(capacity);
  }

  get length(): number {
    return this.#length;
  }

  /** Returns true when the oldest entry was evicted to make room. */
  push(item: T): boolean {
    const evict = this.#length === this.capacity;
    if (evict) this.shift();
    this.#items[(this.#head + this.#length) % this.capacity] = item;
    this.#length++;
    return evict;
  }

  shift(): T | undefined {
    if (this.#length === 0) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head] = undefined;
    this.#head = (this.#head + 1) % this.capacity;
    this.#length--;
    return item;
  }

  /** Empties the queue; returns how many entries it held. */
  clear(): number {
    const n = this.#length;
    this.#items = new Array<T | undefined>(this.capacity);
    this.#head = 0;
    this.#length = 0;
    return n;
  }
}
