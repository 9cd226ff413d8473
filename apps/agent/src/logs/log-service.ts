import path from 'node:path';
import { openEventStore, type AreaOf, type EventStore } from '@rampart/events';
import { localDay, type EventInput, type NoticeInput } from '@rampart/contracts';
import type { AgentHandlers } from '../protocol/dispatch.ts';
import { Archives, dayStart } from './archives.ts';
import { runBackups, type BackupResult } from './backup-runner.ts';
import { LogConfigStore } from './log-config-store.ts';
import { SecretBox } from './sealed-secrets.ts';
import { SyslogBridge } from './syslog-bridge.ts';

const hour = 60 * 60 * 1000;
const day = 24 * hour;

export interface LogServiceOptions {
  stateDir: string;
  log: (line: string) => void;
  now?: () => number;
  /** Periodic work (archives, backups, retention, disk alert); tests run it by hand. */
  background?: boolean;
  /** Per-upload timeout for backups. */
  backupTimeoutMs?: number;
  /** The area of an attacking address, for the situational-awareness rollups. */
  areaOf?: AreaOf;
}

type LogMethods =
  | 'events.append' | 'events.query' | 'events.get' | 'events.stats'
  | 'notices.raise' | 'notices.list' | 'notices.get' | 'notices.read' | 'notices.delete' | 'notices.unread'
  | 'photos.append' | 'photos.query' | 'photos.get' | 'photos.clear'
  | 'logs.settings.get' | 'logs.settings.set' | 'logs.backup.get' | 'logs.backup.set' | 'logs.backup.run';

/**
 * The event store and everything around it: syslog forwarding as events are stored, daily
 * archives and their backups, retention by keep days, and the disk-use alert.
 */
export class LogService {
  readonly store: EventStore;
  readonly config: LogConfigStore;
  readonly archives: Archives;
  readonly #syslog: SyslogBridge;
  readonly #log: (line: string) => void;
  readonly #now: () => number;
  readonly #backupTimeoutMs: number | undefined;
  #timers: NodeJS.Timeout[] = [];
  #backupRun: Promise<BackupResult[]> | undefined;

  private constructor(store: EventStore, config: LogConfigStore, archives: Archives, syslog: SyslogBridge, options: LogServiceOptions) {
    this.store = store;
    this.config = config;
    this.archives = archives;
    this.#syslog = syslog;
    this.#log = options.log;
    this.#now = options.now ?? Date.now;
    this.#backupTimeoutMs = options.backupTimeoutMs;
  }

  static async open(options: LogServiceOptions): Promise<LogService> {
    const box = await SecretBox.open(path.join(options.stateDir, 'secret.key'));
    const config = new LogConfigStore(options.stateDir, box, options.log);
    await config.load();
    const syslog = new SyslogBridge(options.log);
    syslog.configure(config.settings.syslog);
    const store = openEventStore(path.join(options.stateDir, 'events.db'), {
      mode: config.settings.mode,
      now: options.now,
      onStored: (records) => syslog.forward(records),
      areaOf: options.areaOf,
    });
    const service = new LogService(store, config, new Archives(options.stateDir), syslog, options);
    if (options.background !== false) service.#schedule();
    return service;
  }

  event(input: EventInput): void {
    this.store.append([input]);
  }

  notice(input: NoticeInput): void {
    this.store.raiseNotice(input);
  }

  handlers(): Pick<AgentHandlers, LogMethods> {
    const store = this.store;
    return {
      'events.append': async ({ events }) => ({ accepted: store.append(events) }),
      'events.query': async (query) => store.query(query),
      'events.get': async ({ id }) => store.get(id) ?? null,
      'events.stats': async () => ({ ...store.stats(), bytes: await this.logBytes() }),
      'notices.raise': async (input) => ({ id: store.raiseNotice(input) }),
      'notices.list': async ({ offset, limit }) => store.listNotices(offset, limit),
      'notices.get': async ({ id, mark_read }) => store.getNotice(id, mark_read) ?? null,
      'notices.read': async ({ target }) => ({ changed: store.readNotices(target) }),
      'notices.delete': async ({ target }) => ({ changed: store.deleteNotices(target) }),
      'notices.unread': async () => ({ unread: store.unreadNotices() }),
      'photos.append': async ({ photos }) => ({ accepted: store.appendPhotos(photos) }),
      'photos.query': async (query) => store.queryPhotos(query),
      'photos.get': async ({ id }) => store.getPhoto(id) ?? null,
      'photos.clear': async () => ({ removed: store.clearPhotos() }),
      'logs.settings.get': async () => this.config.settings,
      'logs.settings.set': async ({ settings }) => {
        const saved = await this.config.setSettings(settings);
        this.store.setMode(saved.mode);
        this.#syslog.configure(saved.syslog);
        return saved;
      },
      'logs.backup.get': async () => ({ rules: this.config.views() }),
      'logs.backup.set': async (input) => ({ rules: await this.config.setRules(input) }),
      'logs.backup.run': async () => ({ results: await this.backupNow() }),
    };
  }

  /** Archives the whole days not archived yet, then uploads what each rule still lacks. One run at a time. */
  backupNow(): Promise<BackupResult[]> {
    this.#backupRun ??= (async () => {
      try {
        this.store.flush();
        await this.archives.writeMissing(this.store, this.#now(), this.config.settings.keep_days);
        return await runBackups(this.config, this.archives, { event: (e) => this.event(e), notice: (n) => this.notice(n) }, this.#now, this.#backupTimeoutMs);
      } finally {
        this.#backupRun = undefined;
      }
    })();
    return this.#backupRun;
  }

  /** Removes events, snapshots and archives older than the keep days. */
  async enforceRetention(): Promise<number> {
    const days = this.config.settings.keep_days;
    const cutoff = dayStart(localDay(this.#now())) - days * day;
    const removed = this.store.purgeBefore(cutoff);
    await this.archives.removeBefore(localDay(cutoff));
    if (removed > 0) this.event({ kind: 'log.retention', module: 'system', level: 'info', source: 'agent', params: { days, count: removed } });
    return removed;
  }

  /** What the logs take on disk: the store's files and the archives. */
  async logBytes(): Promise<number> {
    return this.store.stats().bytes + (await this.archives.bytes());
  }

  /** Raises the disk alert (at most one notice a day) when the log store outgrows the limit. */
  async checkDiskUse(): Promise<boolean> {
    const limit = this.config.settings.disk_limit_mb;
    if (limit === 0) return false;
    const bytes = await this.logBytes();
    const sizeMb = Math.round(bytes / (1024 * 1024));
    if (bytes <= limit * 1024 * 1024) return false;
    const params = { size_mb: sizeMb, limit_mb: limit };
    const id = this.store.raiseNotice({ kind: 'disk_alert', params, dedupe_key: `disk_alert:${localDay(this.#now())}` });
    if (id !== null) this.event({ kind: 'log.disk_alert', module: 'system', level: 'warning', source: 'agent', params });
    return id !== null;
  }

  #schedule(): void {
    const guard = (name: string, job: () => Promise<unknown>) => () => {
      job().catch((error: unknown) => this.#log(`${name} failed: ${error instanceof Error ? error.message : String(error)}`));
    };
    const hourly = guard('hourly log upkeep', async () => {
      await this.checkDiskUse();
      // Archives are cut once a day has ended; uploads that failed are retried every hour.
      await this.backupNow();
    });
    const daily = guard('log retention', () => this.enforceRetention());
    const first = setTimeout(() => {
      hourly();
      daily();
    }, 60_000);
    this.#timers.push(first, setInterval(hourly, hour), setInterval(daily, day));
    for (const timer of this.#timers) timer.unref();
  }

  async close(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers = [];
    await this.#backupRun?.catch(() => undefined);
    this.store.close();
    await this.#syslog.close();
  }
}
