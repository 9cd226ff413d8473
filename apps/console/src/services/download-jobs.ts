import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import {
  downloadKeepMs, eventLevelNames, eventModuleNames, localDateTime, renderEvent, translate,
  type DownloadJob, type EventQuery, type EventRecord, type Language, type MessageKey,
} from '@rampart/contracts';
import type { AgentPort } from '../context.ts';

/** The filters of a download: an event query without paging. */
export type DownloadFilters = Omit<EventQuery, 'before' | 'limit'>;

interface Job {
  id: string;
  state: DownloadJob['state'];
  rows: number;
  file: string | null;
  expiresAt: number | null;
  cancelled: boolean;
}

const pageRows = 1000;
/** At most this many packings run at once; a further request is told to wait. */
const maxRunning = 2;
const columns: MessageKey[] = [
  'log_col_id', 'log_col_time', 'log_col_level', 'log_col_module', 'log_col_source', 'log_col_account',
  'log_col_ip', 'log_col_content', 'log_col_solution', 'log_col_detail', 'log_col_repeats',
];

function csvField(value: string | number): string {
  const text = String(value);
  // Quote everything that could break a row, and defuse spreadsheet formulas (=, +, -, @ at the start).
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) || safe !== text ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function csvRow(record: EventRecord, lang: Language): string {
  const { content, solution } = renderEvent(record.kind, record.params, lang);
  return [
    record.id, localDateTime(record.time), eventLevelNames[record.level]?.[lang] ?? record.level,
    eventModuleNames[record.module]?.[lang] ?? record.module, record.source, record.account, record.ip,
    content, solution, record.detail, record.repeats + 1,
  ].map(csvField).join(',') + '\r\n';
}

/**
 * Packs the event log into a gzip'd CSV (UTF-8 with BOM, so spreadsheet programs read Chinese)
 * page by page from the agent, in the reader's language. Files are kept 24 hours, then swept.
 */
export class DownloadJobs {
  private readonly jobs = new Map<string, Job>();
  private readonly dir: string;
  private readonly agent: AgentPort;
  private readonly now: () => number;

  constructor(dir: string, agent: AgentPort, now: () => number) {
    this.dir = dir;
    this.agent = agent;
    this.now = now;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /** Starts packing; undefined when too many packings already run. */
  start(filters: DownloadFilters, lang: Language): DownloadJob | undefined {
    const running = [...this.jobs.values()].filter((j) => j.state === 'packing').length;
    if (running >= maxRunning) return undefined;
    const job: Job = { id: randomBytes(8).toString('hex'), state: 'packing', rows: 0, file: null, expiresAt: null, cancelled: false };
    this.jobs.set(job.id, job);
    void this.pack(job, filters, lang);
    return this.view(job);
  }

  status(id: string): DownloadJob | undefined {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    if (job.expiresAt !== null && job.expiresAt <= this.now()) {
      this.jobs.delete(id);
      return undefined;
    }
    return this.view(job);
  }

  cancel(id: string): boolean {
    const job = this.jobs.get(id);
    if (!job) return false;
    job.cancelled = true;
    if (job.state === 'packing') job.state = 'cancelled';
    return true;
  }

  /** The path of a packed file that is still kept, or undefined. */
  async readyFile(file: string): Promise<string | undefined> {
    const job = [...this.jobs.values()].find((j) => j.file === file && j.state === 'ready');
    if (!job || (job.expiresAt ?? 0) <= this.now()) return undefined;
    return join(this.dir, file);
  }

  /** Removes packed files older than 24 hours (also those left by an earlier run). */
  async sweep(): Promise<void> {
    const cutoff = this.now() - downloadKeepMs;
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      const path = join(this.dir, name);
      const info = await stat(path).catch(() => undefined);
      if (info && info.mtimeMs < cutoff) await rm(path, { force: true });
    }
    for (const [id, job] of this.jobs) if (job.expiresAt !== null && job.expiresAt <= this.now()) this.jobs.delete(id);
  }

  private view(job: Job): DownloadJob {
    return { job: job.id, state: job.state, rows: job.rows, file: job.state === 'ready' ? job.file : null, expires_at: job.expiresAt };
  }

  private async pack(job: Job, filters: DownloadFilters, lang: Language): Promise<void> {
    const file = `rampart-log-${job.id}.csv.gz`;
    const partial = join(this.dir, `${file}.part`);
    const gzip = createGzip();
    const out = createWriteStream(partial, { mode: 0o600 });
    const done = once(out, 'close');
    gzip.pipe(out);
    const write = async (text: string) => {
      if (!gzip.write(text)) await once(gzip, 'drain');
    };
    try {
      await write('\uFEFF' + columns.map((key) => csvField(translate(lang, key))).join(',') + '\r\n');
      let before: number | undefined;
      for (;;) {
        if (job.cancelled) throw new Error('cancelled');
        const page = await this.agent.call('events.query', { ...filters, limit: pageRows, ...(before ? { before } : {}) });
        for (const record of page.list) await write(csvRow(record, lang));
        job.rows += page.list.length;
        const last = page.list.at(-1);
        if (!page.more || !last) break;
        before = last.id;
      }
      gzip.end();
      await done;
      if (job.cancelled) throw new Error('cancelled');
      await rename(partial, join(this.dir, file));
      job.file = file;
      job.state = 'ready';
      job.expiresAt = this.now() + downloadKeepMs;
    } catch {
      gzip.destroy();
      out.destroy();
      await rm(partial, { force: true });
      job.state = job.cancelled ? 'cancelled' : 'failed';
      // A finished job is forgotten after the keep time like a ready one.
      job.expiresAt = this.now() + downloadKeepMs;
    }
  }
}
