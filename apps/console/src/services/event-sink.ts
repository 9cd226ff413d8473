import type { EventInput } from '@rampart/contracts';
import type { AgentPort } from '../context.ts';

/** Longest queue kept while the agent is away; past it the oldest records go (and are counted). */
const maxQueued = 10_000;
const batchSize = 1000;

/**
 * Hands the console's events (administrative actions, sign-ins) to the agent's event store in
 * batches. Recording never delays or fails a request: when the agent is away the records wait here
 * and go out when it is back.
 */
export class EventSink {
  private queue: EventInput[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> | undefined;
  private dropped = 0;
  private readonly agent: AgentPort;
  private readonly intervalMs: number;
  private readonly log: (line: string) => void;

  constructor(agent: AgentPort, options: { intervalMs?: number; log?: (line: string) => void } = {}) {
    this.agent = agent;
    this.intervalMs = options.intervalMs ?? 200;
    this.log = options.log ?? (() => {});
  }

  record(event: EventInput): void {
    this.queue.push(event);
    if (this.queue.length > maxQueued) {
      this.queue.splice(0, this.queue.length - maxQueued);
      this.dropped++;
    }
    this.flushIn(this.intervalMs);
  }

  /** Sends what is queued; resolves when it is stored or has been put back for a retry. */
  flush(): Promise<void> {
    this.sending ??= this.send().finally(() => {
      this.sending = undefined;
    });
    return this.sending;
  }

  get pending(): number {
    return this.queue.length;
  }

  close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    return this.flush();
  }

  private async send(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, batchSize);
      try {
        await this.agent.call('events.append', { events: batch });
      } catch (error) {
        this.queue.unshift(...batch);
        this.log(`event store unreachable, ${this.queue.length} records wait: ${error instanceof Error ? error.message : String(error)}`);
        this.flushIn(Math.max(this.intervalMs, 2000));
        return;
      }
    }
    if (this.dropped > 0) {
      this.log(`event queue overflowed ${this.dropped} times while the agent was away`);
      this.dropped = 0;
    }
  }

  /** One pending flush at a time; it never keeps the process alive on its own. */
  private flushIn(delayMs: number): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, delayMs);
    this.timer.unref();
  }
}
