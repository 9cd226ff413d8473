import type { EventInput, GuardDenial } from '@rampart/contracts';

/*
 * Denials reported by the helper, as event-store records. A process looping on a denied write
 * would otherwise fill the store: each rule may record `limit` events per window; the rest are
 * counted and recorded once, as one summary event, when the window ends.
 */

export interface DenialRecorderOptions {
  sink: (input: EventInput) => void;
  now?: () => number;
  /** Events per rule per window. Default 20. */
  limit?: number;
  /** Default 10 s. */
  windowMs?: number;
  /** Timers that write the summary at a window's end; tests turn them off and call flush(). */
  timers?: boolean;
}

interface Window {
  start: number;
  recorded: number;
  suppressed: number;
  timer: NodeJS.Timeout | null;
}

/** The event of one denial. Naming rules (`name:<id>`) get their own kind. */
export function denialEvent(denial: GuardDenial): EventInput {
  return {
    time: denial.time > 0 ? denial.time : undefined,
    kind: denial.rule.startsWith('name:') ? 'tamper.name_denied' : 'tamper.denied',
    module: 'tamper',
    level: 'warning',
    source: 'guard',
    params: {
      op: denial.op,
      path: denial.path.slice(0, 1000),
      process: (denial.exe || denial.comm).slice(0, 1000),
      pid: denial.pid,
      uid: denial.uid,
      rule: denial.rule,
      repeats: denial.repeats,
    },
  };
}

export class DenialRecorder {
  readonly #options: DenialRecorderOptions;
  readonly #now: () => number;
  readonly #windows = new Map<string, Window>();

  constructor(options: DenialRecorderOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  record(denial: GuardDenial): void {
    const now = this.#now();
    const windowMs = this.#options.windowMs ?? 10_000;
    let window = this.#windows.get(denial.rule);
    if (window && now - window.start >= windowMs) {
      this.#close(denial.rule, window);
      window = undefined;
    }
    if (!window) {
      window = { start: now, recorded: 0, suppressed: 0, timer: null };
      this.#windows.set(denial.rule, window);
    }
    if (window.recorded < (this.#options.limit ?? 20)) {
      window.recorded += 1;
      this.#options.sink(denialEvent(denial));
      return;
    }
    window.suppressed += denial.repeats;
    if (!window.timer && this.#options.timers !== false) {
      const rule = denial.rule;
      const open = window;
      open.timer = setTimeout(() => this.#close(rule, open), Math.max(0, open.start + windowMs - now));
      open.timer.unref();
    }
  }

  /** Writes the summaries of windows that have ended (or of all, with `all`: at close). */
  flush(all = false): void {
    const windowMs = this.#options.windowMs ?? 10_000;
    const now = this.#now();
    for (const [rule, window] of [...this.#windows]) if (all || now - window.start >= windowMs) this.#close(rule, window);
  }

  #close(rule: string, window: Window): void {
    if (window.timer) clearTimeout(window.timer);
    if (this.#windows.get(rule) === window) this.#windows.delete(rule);
    if (window.suppressed === 0) return;
    this.#options.sink({
      kind: 'tamper.denials_suppressed',
      module: 'tamper',
      level: 'warning',
      source: 'guard',
      params: { rule, count: window.suppressed, seconds: Math.round((this.#options.windowMs ?? 10_000) / 1000) },
    });
  }
}
