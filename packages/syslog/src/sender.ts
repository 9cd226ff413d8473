import { beforeDeadline } from './deadline.ts';
import type { Connect, Link, LinkEvents } from './link.ts';
import { BoundedQueue } from './queue.ts';
import type { SyslogServer } from './transport.ts';

export interface SenderStats {
  /** Messages the operating system accepted. Plain syslog has no acknowledgement beyond that. */
  sent: number;
  /** Messages never handed over: evicted from a full queue, sent after close, or still queued when close gave up. */
  dropped: number;
  /** Messages handed to a socket that then reported an error. */
  failed: number;
  /** A connection (TCP) or a connected socket to a resolved address (UDP) is open. */
  connected: boolean;
}

export interface Sender {
  readonly server: SyslogServer;
  /** Queues one formatted message; never throws, never waits. */
  send(message: Buffer): void;
  stats(): SenderStats;
  /** Sends what it can within `timeoutMs`, then releases every socket and timer. */
  close(timeoutMs?: number): Promise<void>;
}

export interface SenderOptions {
  /** Messages held while the receiver is unreachable (default 10,000); beyond it the oldest go. */
  queueLimit?: number;
  /** First wait before reconnecting (default 500 ms); doubles after each failure up to `maxBackoffMs` (default 30 s). */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** Default for close() (2 s). */
  closeTimeoutMs?: number;
  /** Told about connection and send errors (they are otherwise only counted). */
  onError?: (error: Error, server: SyslogServer) => void;
}

/** Writes in flight on one link: enough to keep a socket busy, few enough to lose little when it breaks. */
const maxInFlight = 64;

/**
 * The part common to every transport: a bounded queue in front of a link that is (re)opened with
 * exponential back-off, counters, and a close that flushes within a deadline.
 */
export class QueuedSender implements Sender {
  readonly server: SyslogServer;
  readonly #connect: Connect;
  readonly #queue: BoundedQueue<Buffer>;
  readonly #options: Required<Omit<SenderOptions, 'onError' | 'queueLimit'>> & Pick<SenderOptions, 'onError'>;
  #link: Link | undefined;
  /** Writes not yet reported by the current link; a fresh object per link, so late reports from an old one do not count. */
  #flight = { count: 0 };
  #blocked = false;
  #connecting: AbortController | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #backoffMs: number;
  #closing: Promise<void> | undefined;
  /** Wakes close() when something it waits for may have happened. */
  #wake: (() => void) | undefined;
  #sent = 0;
  #dropped = 0;
  #failed = 0;

  constructor(server: SyslogServer, connect: Connect, options: SenderOptions = {}) {
    this.server = server;
    this.#connect = connect;
    this.#queue = new BoundedQueue(options.queueLimit ?? 10_000);
    this.#options = {
      initialBackoffMs: options.initialBackoffMs ?? 500,
      maxBackoffMs: options.maxBackoffMs ?? 30_000,
      closeTimeoutMs: options.closeTimeoutMs ?? 2_000,
      onError: options.onError,
    };
    const { initialBackoffMs, maxBackoffMs } = this.#options;
    if (!(initialBackoffMs > 0 && maxBackoffMs >= initialBackoffMs)) throw new RangeError('syslog back-off needs 0 < initialBackoffMs <= maxBackoffMs');
    this.#backoffMs = initialBackoffMs;
    // Connect now rather than on the first event: stats() then tells the administrator whether the server is reachable.
    this.#open();
  }

  send(message: Buffer): void {
    if (this.#closing) {
      this.#dropped++;
      return;
    }
    if (this.#queue.push(message)) this.#dropped++;
    this.#pump();
  }

  stats(): SenderStats {
    return { sent: this.#sent, dropped: this.#dropped, failed: this.#failed, connected: this.#link !== undefined };
  }

  close(timeoutMs = this.#options.closeTimeoutMs): Promise<void> {
    this.#closing ??= this.#shutdown(timeoutMs);
    return this.#closing;
  }

  #open(): void {
    const attempt = new AbortController();
    this.#connecting = attempt;
    let link: Link | undefined;
    const events: LinkEvents = {
      drain: () => {
        if (link === undefined || link !== this.#link) return;
        this.#blocked = false;
        this.#pump();
      },
      broken: (error) => {
        if (link === undefined || link !== this.#link) return;
        this.#lose(link, error);
      },
    };
    this.#connect(events, attempt.signal).then(
      (opened) => {
        if (this.#connecting === attempt) this.#connecting = undefined;
        if (attempt.signal.aborted) {
          opened.destroy();
          return;
        }
        link = opened;
        this.#link = opened;
        this.#flight = { count: 0 };
        this.#blocked = false;
        this.#backoffMs = this.#options.initialBackoffMs;
        this.#pump();
        this.#notify();
      },
      (error: unknown) => {
        if (this.#connecting === attempt) this.#connecting = undefined;
        if (!attempt.signal.aborted) this.#report(error);
        this.#retry();
        this.#notify();
      },
    );
  }

  #lose(link: Link, error: Error): void {
    link.destroy();
    this.#link = undefined;
    this.#report(error);
    this.#retry();
    this.#notify();
  }

  #retry(): void {
    if (this.#closing) return;
    const delay = this.#backoffMs;
    this.#backoffMs = Math.min(delay * 2, this.#options.maxBackoffMs);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#open();
    }, delay);
    // A receiver that stays away must not keep the process alive; close() is what ends a sender.
    this.#retryTimer.unref();
  }

  #pump(): void {
    const link = this.#link;
    if (link === undefined) return;
    const flight = this.#flight;
    // Re-check the link each turn: a write can report synchronously and break it.
    while (this.#link === link && !this.#blocked && flight.count < maxInFlight && this.#queue.length > 0) {
      const message = this.#queue.shift() as Buffer;
      flight.count++;
      const done = (error?: Error | null): void => {
        flight.count--;
        if (error) this.#failed++;
        else this.#sent++;
        if (flight === this.#flight) this.#pump();
        this.#notify();
      };
      try {
        if (!link.write(message, done)) this.#blocked = true;
      } catch (error) {
        // Transports report through `done`; this only makes sure send() never throws.
        done(error as Error);
        if (this.#link === link) this.#lose(link, error as Error);
      }
    }
  }

  #report(error: unknown): void {
    const err = error instanceof Error ? error : new Error(String(error));
    try {
      this.#options.onError?.(err, this.server);
    } catch {
      // A failing error handler must not break delivery.
    }
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  /** Flushed: nothing left to write on an open link, or no link and none coming. */
  #settled(): boolean {
    if (this.#link) return this.#queue.length === 0 && this.#flight.count === 0;
    return this.#connecting === undefined;
  }

  async #shutdown(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    while (!this.#settled() && Date.now() < deadline) await this.#nextChange(deadline);
    this.#connecting?.abort();
    this.#connecting = undefined;
    const link = this.#link;
    this.#link = undefined;
    if (link) {
      await beforeDeadline(link.end(), deadline);
      link.destroy();
    }
    this.#dropped += this.#queue.clear();
  }

  /** Resolves at the next state change or at the deadline, whichever comes first. */
  #nextChange(deadline: number): Promise<void> {
    let wake!: () => void;
    const changed = new Promise<void>((resolve) => (wake = resolve));
    this.#wake = wake;
    return beforeDeadline(changed, deadline);
  }
}
