import path from 'node:path';
import { z } from 'zod';
import {
  localDateTime, protectionModeSchema, type AgentParsedParams, type EventInput, type NoticeInput, type ProtectionMode, type ProtectionState,
} from '@rampart/contracts';
import { writeFileAtomic } from '../modules/atomic-write.ts';
import { readJsonFile } from '../modules/json-file.ts';

/** An engine that stops enforcing while protection is paused (the firewall today). */
export interface Pausable {
  setPaused(paused: boolean): Promise<void>;
}

export interface ProtectionSinks {
  event(input: EventInput): void;
  notice(input: NoticeInput): void;
}

export interface ProtectionOptions {
  stateDir: string;
  log: (line: string) => void;
  sinks: ProtectionSinks;
  now?: () => number;
  /** The resume timer; tests with a fake clock turn it off and read the state instead (a read past the end resumes too). */
  timers?: boolean;
}

const fileSchema = z.object({
  mode: protectionModeSchema,
  until: z.number().nullable(),
  since: z.number().nullable(),
  account: z.string(),
});
type Stored = z.infer<typeof fileSchema>;

const initial: Stored = { mode: 'on', until: null, since: null, account: '' };
/** setTimeout's longest delay; a later end is reached by re-arming. */
const maxDelayMs = 2_147_483_647;

/**
 * System protection on / temporarily off / permanently off, owned by the agent so it holds while
 * the console is down: kept in <stateDir>/protection.json, engines told to pause or resume, and
 * a timer that turns protection back on when a temporary disable ends — also after an agent
 * restart past the end time (checked at open).
 */
export class ProtectionService {
  readonly file: string;
  readonly #options: ProtectionOptions;
  readonly #now: () => number;
  readonly #engines: Pausable[] = [];
  #state: Stored = initial;
  #timer: NodeJS.Timeout | null = null;
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  private constructor(options: ProtectionOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.file = path.join(options.stateDir, 'protection.json');
  }

  /** Reads the stored state; a temporary disable that ended while the agent was down ends now. */
  static async open(options: ProtectionOptions): Promise<ProtectionService> {
    const service = new ProtectionService(options);
    await service.#load();
    if (service.#due()) await service.#resumeByTimer();
    service.#arm();
    return service;
  }

  /** Engines read this at start, so a restart during a disable never re-applies protection for a moment. */
  get paused(): boolean {
    return this.#state.mode !== 'on';
  }

  /** An engine follows the state from now on (it was built with `paused` already). */
  attach(engine: Pausable): void {
    this.#engines.push(engine);
  }

  async get(): Promise<ProtectionState> {
    if (this.#due()) await this.#serial(async () => (this.#due() ? this.#resumeByTimer() : undefined));
    return this.#view();
  }

  async set(params: AgentParsedParams<'protection.set'>): Promise<ProtectionState> {
    return this.#serial(async () => {
      const now = this.#now();
      const { mode, account, ip } = params;
      const before = this.#state.mode;
      if (mode === 'on' && before === 'on') return this.#view();
      const until = mode === 'temp_off' ? now + (params.minutes ?? 0) * 60_000 : null;
      await this.#store({ mode, until, since: now, account });
      if (mode === 'temp_off') {
        const at = localDateTime(until!);
        this.#event('protection.paused', 'warning', account, ip, { account, minutes: params.minutes ?? 0, until: at });
        this.#options.sinks.notice({ kind: 'protection_temp_off', params: { account, until: at } });
      } else if (mode === 'off') {
        this.#event('protection.stopped', 'warning', account, ip, { account });
      } else {
        this.#event('protection.resumed', 'info', account, ip, { account });
      }
      if ((before === 'on') !== (mode === 'on')) await this.#tellEngines(mode);
      this.#arm();
      return this.#view();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#queue;
  }

  #view(): ProtectionState {
    const { mode, until, since, account } = this.#state;
    const minutesLeft = mode === 'temp_off' && until !== null ? Math.max(1, Math.ceil((until - this.#now()) / 60_000)) : null;
    return { mode, until: mode === 'temp_off' ? until : null, minutes_left: minutesLeft, since, account };
  }

  #due(): boolean {
    return this.#state.mode === 'temp_off' && (this.#state.until ?? 0) <= this.#now();
  }

  async #resumeByTimer(): Promise<void> {
    await this.#store({ mode: 'on', until: null, since: this.#now(), account: '' });
    this.#event('protection.auto_resumed', 'info', '', '', {});
    this.#options.log('protection: the temporary disable ended; protection is back on');
    await this.#tellEngines('on');
  }

  #arm(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#closed || this.#options.timers === false || this.#state.mode !== 'temp_off') return;
    const delay = Math.min(maxDelayMs, Math.max(0, (this.#state.until ?? 0) - this.#now()));
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#serial(async () => {
        if (this.#due()) await this.#resumeByTimer();
        this.#arm();
      }).catch((error: unknown) => this.#options.log(`protection: resume failed: ${String(error)}`));
    }, delay);
    this.#timer.unref();
  }

  async #tellEngines(mode: ProtectionMode): Promise<void> {
    for (const engine of this.#engines) {
      try {
        await engine.setPaused(mode !== 'on');
      } catch (error) {
        // One engine failing must not leave the others in the old state.
        this.#options.log(`protection: an engine did not follow (${mode}): ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  #event(kind: 'protection.paused' | 'protection.stopped' | 'protection.resumed' | 'protection.auto_resumed', level: 'info' | 'warning', account: string, ip: string, params: Record<string, string | number>): void {
    this.#options.sinks.event({ kind, module: 'system', level, source: account ? 'console' : 'agent', account, ip, params });
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #load(): Promise<void> {
    const read = await readJsonFile(this.file, fileSchema, this.#options.log);
    if (read.state === 'ok') this.#state = read.value;
    // A damaged file means protection on: failing open would leave the server unprotected.
    else if (read.state === 'damaged') this.#options.log(`${this.file} is damaged; protection stays on`);
  }

  async #store(next: Stored): Promise<void> {
    await writeFileAtomic(this.file, `${JSON.stringify(next)}\n`);
    this.#state = next;
  }
}
