import path from 'node:path';
import { z } from 'zod';
import { defaultNtpSettings, ntpSettingsSchema, parseNtpServer, type NtpSettings, type NtpStatus, type NtpView } from '@rampart/contracts';
import { queryFirst, SntpAllFailedError, type SntpOptions, type SntpTarget } from '@rampart/sntp';
import { writeFileAtomic } from '../modules/atomic-write.ts';
import { readJsonFile } from '../modules/json-file.ts';

/** Sets the system clock to `epochMs` (Unix ms). Injected: production runs a command, tests record. */
export type ClockSetter = (epochMs: number) => Promise<void>;

export interface NtpServiceOptions {
  stateDir: string;
  log: (line: string) => void;
  /** Null: the time is fetched but the clock is left alone (logged) — the default when none is given. */
  setClock: ClockSetter | null;
  /** Periodic sync; tests turn it off and call sync(). */
  timers?: boolean;
  /** Per server address. */
  timeoutMs?: number;
  /** Pins name resolution (tests). */
  lookup?: SntpOptions['lookup'];
}

/** The first sync after start waits for the network to come up a little. */
const startupDelayMs = 10_000;

const idle: NtpStatus = { state: 'idle', at: null, server: '', time: null, offset_ms: null, delay_ms: null, clock_set: false, error: '' };

/**
 * Time sync by SNTP: settings in <stateDir>/ntp.json; a sync on every interval while enabled and
 * on request ("sync now"). Servers are tried in order; the first that answers sets the clock. One
 * sync runs at a time: a request during a sync waits for that sync's result.
 */
export class NtpService {
  readonly file: string;
  readonly #options: NtpServiceOptions;
  #settings: NtpSettings = defaultNtpSettings;
  #status: NtpStatus = idle;
  #running: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  private constructor(options: NtpServiceOptions) {
    this.#options = options;
    this.file = path.join(options.stateDir, 'ntp.json');
  }

  static async open(options: NtpServiceOptions): Promise<NtpService> {
    const service = new NtpService(options);
    await service.#load();
    service.#schedule();
    // After a (re)boot the clock may be far off: with sync on, the first sync comes soon, not an interval later.
    if (service.#settings.enabled && options.timers !== false) setTimeout(() => void service.#startupSync(), startupDelayMs).unref();
    return service;
  }

  view(): NtpView {
    return { settings: this.#settings, status: this.#status };
  }

  async set(settings: NtpSettings): Promise<NtpView> {
    await writeFileAtomic(this.file, `${JSON.stringify({ settings })}\n`);
    this.#settings = settings;
    this.#schedule();
    return this.view();
  }

  /** Syncs now (or joins the sync under way) and answers with its result. */
  async sync(): Promise<NtpView> {
    this.#running ??= this.#run().finally(() => {
      this.#running = null;
    });
    await this.#running;
    return this.view();
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running;
  }

  async #startupSync(): Promise<void> {
    if (!this.#closed && this.#settings.enabled && this.#status.state === 'idle') await this.sync();
  }

  async #run(): Promise<void> {
    const servers = this.#settings.servers;
    this.#status = { ...this.#status, state: 'fetching', error: '' };
    const targets: Array<SntpTarget & { label: string }> = servers.flatMap((label) => {
      const parsed = parseNtpServer(label);
      return parsed ? [{ ...parsed, label }] : [];
    });
    try {
      const result = await queryFirst(targets, { timeoutMs: this.#options.timeoutMs ?? 3000, lookup: this.#options.lookup });
      const label = targets.find((t) => t.host === result.host && (t.port ?? 123) === result.port)?.label ?? result.host;
      let clockSet = false;
      let error = '';
      if (this.#options.setClock) {
        try {
          // The offset, not the reply's time: the clock is set to "now" as the server sees it at this moment.
          await this.#options.setClock(Date.now() + result.offsetMs);
          clockSet = true;
        } catch (e) {
          error = `setting the clock failed: ${e instanceof Error ? e.message : String(e)}`.slice(0, 500);
          this.#options.log(`ntp: ${error}`);
        }
      } else {
        this.#options.log(`ntp: ${label} answered (offset ${result.offsetMs.toFixed(1)} ms); no clock setter, the clock is left alone`);
      }
      this.#status = {
        state: error ? 'failure' : 'success', at: Date.now(), server: label, time: result.time, offset_ms: round(result.offsetMs), delay_ms: round(result.delayMs), clock_set: clockSet, error,
      };
    } catch (e) {
      const reason = e instanceof SntpAllFailedError || e instanceof Error ? e.message : String(e);
      this.#status = { ...idle, state: 'failure', at: Date.now(), server: servers.at(-1) ?? '', error: reason.slice(0, 1000) };
      this.#options.log(`ntp: sync failed: ${reason}`);
    }
  }

  #schedule(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    if (this.#closed || this.#options.timers === false || !this.#settings.enabled) return;
    this.#timer = setInterval(() => void this.sync(), this.#settings.interval_minutes * 60_000);
    this.#timer.unref();
  }

  async #load(): Promise<void> {
    const read = await readJsonFile(this.file, z.object({ settings: ntpSettingsSchema }), this.#options.log);
    if (read.state === 'ok') this.#settings = read.value.settings;
    else if (read.state === 'damaged') this.#options.log(`${this.file} is damaged; default NTP settings are used`);
  }
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
