/**
 * Runs actions shortly after the current reply has been written, so a restart or reboot does
 * not cut off its own answer. Failures are logged; nobody is left to answer them.
 */
export class DelayedActions {
  readonly #log: (line: string) => void;
  readonly #delayMs: number;
  readonly #timers = new Set<NodeJS.Timeout>();

  constructor(log: (line: string) => void, delayMs = 200) {
    this.#log = log;
    this.#delayMs = delayMs;
  }

  schedule(name: string, action: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      Promise.resolve()
        .then(action)
        .catch((error: unknown) => {
          this.#log(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
        });
    }, this.#delayMs);
    this.#timers.add(timer);
  }

  /** A stopped agent starts nothing new. */
  cancelAll(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }
}
