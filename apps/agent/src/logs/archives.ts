import { closeSync, createReadStream, createWriteStream, mkdirSync, openSync, writeSync } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { localDay, type EventRecord } from '@rampart/contracts';

/** What an archive is cut from: the store's events of a time range, in id order. */
export interface ArchiveSource {
  exportRange(from: number, to: number, onRecord: (record: EventRecord) => void): number;
}

const archivePattern = /^events-(\d{4}-\d{2}-\d{2})\.jsonl\.gz$/;

export function dayStart(day: string): number {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1).getTime();
}

function nextDay(day: string): string {
  const start = new Date(dayStart(day));
  start.setDate(start.getDate() + 1);
  return localDay(start.getTime());
}

/**
 * Daily archives of the event log: one gzip'd JSON-lines file per whole local day, in
 * <stateDir>/archives. The backup rules upload these; they are removed after the keep days.
 */
export class Archives {
  readonly dir: string;

  constructor(stateDir: string) {
    this.dir = path.join(stateDir, 'archives');
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  static fileName(day: string): string {
    return `events-${day}.jsonl.gz`;
  }

  async list(): Promise<{ day: string; file: string; bytes: number }[]> {
    const names = (await readdir(this.dir)).filter((n) => archivePattern.test(n)).sort();
    return Promise.all(names.map(async (file) => ({ day: archivePattern.exec(file)![1]!, file, bytes: (await stat(path.join(this.dir, file))).size })));
  }

  /**
   * Writes the archives of the whole days before today that are missing, going back at most
   * `maxDays`. Returns the files written.
   */
  async writeMissing(source: ArchiveSource, now: number, maxDays: number): Promise<string[]> {
    const have = new Set((await this.list()).map((a) => a.day));
    const today = localDay(now);
    const start = new Date(dayStart(today));
    start.setDate(start.getDate() - maxDays);
    const written: string[] = [];
    for (let day = localDay(start.getTime()); day < today; day = nextDay(day)) {
      if (have.has(day)) continue;
      const rows = await this.write(source, day);
      if (rows > 0) written.push(Archives.fileName(day));
    }
    return written;
  }

  /** Writes one day's archive (none for an empty day); returns the row count. */
  async write(source: ArchiveSource, day: string): Promise<number> {
    const target = path.join(this.dir, Archives.fileName(day));
    const plain = `${target}.jsonl.part`;
    // Lines go to a plain file first (bounded memory however big the day), then through gzip.
    const fd = openSync(plain, 'w', 0o600);
    let buffer = '';
    let rows = 0;
    try {
      rows = source.exportRange(dayStart(day), dayStart(nextDay(day)), (record) => {
        buffer += `${JSON.stringify(record)}\n`;
        if (buffer.length > 1 << 20) {
          writeSync(fd, buffer);
          buffer = '';
        }
      });
      if (buffer) writeSync(fd, buffer);
    } finally {
      closeSync(fd);
    }
    try {
      if (rows === 0) return 0;
      await pipeline(createReadStream(plain), createGzip(), createWriteStream(`${target}.part`, { mode: 0o600 }));
      await rename(`${target}.part`, target);
      return rows;
    } finally {
      await rm(plain, { force: true });
      await rm(`${target}.part`, { force: true });
    }
  }

  /** Removes archives of days before `cutoffDay`. */
  async removeBefore(cutoffDay: string): Promise<number> {
    let removed = 0;
    for (const archive of await this.list()) {
      if (archive.day < cutoffDay) {
        await rm(path.join(this.dir, archive.file), { force: true });
        removed++;
      }
    }
    return removed;
  }

  async bytes(): Promise<number> {
    return (await this.list()).reduce((sum, a) => sum + a.bytes, 0);
  }
}
