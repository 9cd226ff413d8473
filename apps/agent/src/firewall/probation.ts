import { randomBytes } from 'node:crypto';
import type { FirewallWarning, Probation } from '@rampart/contracts';

/**
 * One change that cut the administrator's own address off, live but not yet kept: confirmed
 * within the time, it stays; otherwise `rollback` runs. One at a time: a second risky change
 * waits until the first is settled.
 */
export class ProbationDesk {
  #pending: { view: Probation; rollback: () => Promise<void>; timer: NodeJS.Timeout } | null = null;
  readonly #durationMs: number;
  readonly #now: () => number;
  readonly #log: (line: string) => void;

  constructor(durationMs: number, now: () => number, log: (line: string) => void) {
    this.#durationMs = durationMs;
    this.#now = now;
    this.#log = log;
  }

  get pending(): Probation | null {
    return this.#pending?.view ?? null;
  }

  open(warnings: FirewallWarning[], rollback: () => Promise<void>): Probation {
    const view: Probation = { token: randomBytes(16).toString('hex'), expires_at: this.#now() + this.#durationMs, warnings };
    const timer = setTimeout(() => {
      void this.#expire();
    }, this.#durationMs);
    timer.unref();
    this.#pending = { view, rollback, timer };
    return view;
  }

  confirm(token: string): boolean {
    if (!this.#pending || this.#pending.view.token !== token) return false;
    clearTimeout(this.#pending.timer);
    this.#pending = null;
    return true;
  }

  /** Rolls the pending change back now (the time is up). */
  async #expire(): Promise<void> {
    const pending = this.#pending;
    if (!pending) return;
    this.#pending = null;
    try {
      await pending.rollback();
    } catch (error) {
      this.#log(`firewall: rollback failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Stopping with a change unconfirmed rolls it back: nobody confirmed it. */
  async close(): Promise<void> {
    if (this.#pending) clearTimeout(this.#pending.timer);
    await this.#expire();
  }
}
