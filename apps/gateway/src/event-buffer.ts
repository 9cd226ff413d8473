import { gatewayEventSchema, type GatewayEventDrain, type GatewayEventRecord } from '@rampart/contracts';

/**
 * The primary's buffer of policy events until the console drains them (admin `events`). Bounded
 * twice: by count (default 10,000) and by size (default 16 MiB: a snapshot may carry up to 1 MB of
 * body, so 10,000 of them would not fit in memory). When full, the OLDEST events go, so a long
 * flood leaves the console its latest picture; the loss is counted and reported with the next drain.
 * One drain answer holds at most 1000 events and about 8 MiB of JSON, so it stays one sane line.
 *
 * Why 16 MiB (it was 64): the console drains every second, up to 1000 events / 8 MiB a time, so
 * the buffer only has to span a console restart or a slow drain; a buffer nobody drains sits full
 * for the gateway's lifetime in the primary, which should stay small. 16 MiB is two full drain
 * answers, or 10,000 events without snapshots (~1 KiB each as held: measured ~10 MiB of heap for
 * 10,000 block events), or ~16 snapshots of a 1 MB body. `maxEvents: 0` keeps nothing: main.ts
 * uses it when there is no admin socket, since then nothing can ever drain.
 */
export interface EventBufferOptions {
  maxEvents?: number;
  maxBytes?: number;
  drainEvents?: number;
  drainBytes?: number;
  /**
   * The area of an address, for events that come without one: workers look areas up only when the
   * policy reads them (geo-areas.ts), so the primary, one process, fills in the rest for the console.
   */
  areaOf?: (ip: string) => string | null;
}

export class EventBuffer {
  private readonly queue: { event: GatewayEventRecord; bytes: number }[] = [];
  private head = 0;
  private bytes = 0;
  private dropped = 0;
  /** Every event lost since start (the stdout summary). */
  droppedTotal = 0;
  private readonly limits: Required<Omit<EventBufferOptions, 'areaOf'>>;
  private readonly areaOf: ((ip: string) => string | null) | undefined;

  constructor(options: EventBufferOptions = {}) {
    const { areaOf, ...limits } = options;
    this.limits = { maxEvents: 10_000, maxBytes: 16 * 2 ** 20, drainEvents: 1000, drainBytes: 8 * 2 ** 20, ...limits };
    this.areaOf = areaOf;
  }

  /**
   * Adds events from a worker. They are checked against the schema here: a worker is the part of
   * the gateway that parses the internet's bytes, and one malformed event would make the whole
   * drain answer fail the console's validation.
   */
  push(events: readonly unknown[]): void {
    // maxEvents 0: no buffer (a gateway without an admin socket has no one to drain it).
    if (this.limits.maxEvents === 0) return;
    for (const raw of events) {
      const parsed = gatewayEventSchema.safeParse(raw);
      if (!parsed.success) {
        this.dropped++;
        this.droppedTotal++;
        continue;
      }
      const event = parsed.data;
      const bytes = 1024 + event.target.length + (event.snapshot ? event.snapshot.headers.length + event.snapshot.body.length : 0);
      this.queue.push({ event, bytes });
      this.bytes += bytes;
      while (this.length() > this.limits.maxEvents || (this.bytes > this.limits.maxBytes && this.length() > 1)) this.dropOldest();
    }
    this.compact();
  }

  /** Counts events lost before they reached the buffer (a worker's own overflow). */
  lost(n: number): void {
    if (n > 0) {
      this.dropped += n;
      this.droppedTotal += n;
    }
  }

  length(): number {
    return this.queue.length - this.head;
  }

  /** The oldest events (removed from the buffer), the loss since the last drain, and whether more wait. */
  drain(): GatewayEventDrain {
    const events: GatewayEventRecord[] = [];
    let size = 0;
    while (this.head < this.queue.length && events.length < this.limits.drainEvents) {
      const item = this.queue[this.head]!;
      if (events.length > 0 && size + item.bytes > this.limits.drainBytes) break;
      // Looked up as events leave, not as they come: a flood that overflows costs no lookups.
      if (item.event.area === null && this.areaOf) item.event.area = this.areaOf(item.event.client_ip);
      events.push(item.event);
      size += item.bytes;
      this.bytes -= item.bytes;
      this.head++;
    }
    this.compact();
    const dropped = this.dropped;
    this.dropped = 0;
    return { ok: true, events, dropped, more: this.length() > 0 };
  }

  private dropOldest(): void {
    const item = this.queue[this.head++];
    if (item) this.bytes -= item.bytes;
    this.dropped++;
    this.droppedTotal++;
  }

  /** Shift lazily: an array shift per event would be O(n) under a flood. */
  private compact(): void {
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    } else if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
    }
  }
}
