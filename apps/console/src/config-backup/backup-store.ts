import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  configBackupNamePattern, configBackupsKept, configHeadSchema,
  type ConfigBackupKind, type ConfigBackupView,
} from '@rampart/contracts';
import type { Db } from '../db/database.ts';

/** `20260102-030405` in UTC: names sort by time. */
function stamp(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}`;
}

function randomPart(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(6)].map((b) => alphabet[b % alphabet.length]).join('');
}

/** Where server backups live: `config-backups/` beside the panel database (a temp dir for an in-memory one). */
export function backupsDirFor(db: Db): string {
  const location = db.location();
  return location ? join(dirname(location), 'config-backups') : join(tmpdir(), `rampart-config-backups-${process.pid}`);
}

/**
 * Server-side configuration backups: one JSON file each, names generated here (never taken from a
 * request — a name from a query is only ever matched against this pattern and the listing), the
 * newest `configBackupsKept` kept. Files are 0600: they hold the whole configuration.
 */
export class BackupStore {
  readonly dir: string;
  readonly #cache = new Map<string, { mtimeMs: number; view: ConfigBackupView | null }>();

  constructor(dir: string) {
    this.dir = dir;
  }

  /** Writes a backup; `prune: false` leaves older ones alone until `prune()` (a restore prunes only once it succeeded). */
  async save(text: string, kind: ConfigBackupKind, now: number, options: { prune?: boolean } = {}): Promise<string> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const name = `rampart-config-${stamp(now)}-${randomPart()}-${kind}.json`;
    const temp = join(this.dir, `.${name}.tmp`);
    await writeFile(temp, text, { mode: 0o600, flag: 'wx' });
    await rename(temp, join(this.dir, name));
    if (options.prune !== false) await this.prune();
    return name;
  }

  /** Newest first. Files that are not backups of this format are not listed. */
  async list(): Promise<ConfigBackupView[]> {
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter((name) => configBackupNamePattern.test(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const views: ConfigBackupView[] = [];
    for (const name of names) {
      const view = await this.#view(name);
      if (view) views.push(view);
    }
    for (const name of this.#cache.keys()) if (!names.includes(name)) this.#cache.delete(name);
    return views.sort((a, b) => b.created_at - a.created_at || (a.file < b.file ? 1 : -1));
  }

  /** The text of a listed backup, or null. `name` must match the generated pattern. */
  async read(name: string): Promise<string | null> {
    if (!configBackupNamePattern.test(name)) return null;
    try {
      return await readFile(join(this.dir, name), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async remove(name: string): Promise<boolean> {
    if (!configBackupNamePattern.test(name)) return false;
    try {
      await rm(join(this.dir, name));
      this.#cache.delete(name);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  async #view(name: string): Promise<ConfigBackupView | null> {
    const path = join(this.dir, name);
    let info;
    try {
      info = await stat(path);
    } catch {
      return null;
    }
    const cached = this.#cache.get(name);
    if (cached && cached.mtimeMs === info.mtimeMs) return cached.view;
    let view: ConfigBackupView | null = null;
    try {
      const head = configHeadSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
      const kind = /-(manual|upload|auto)\.json$/.exec(name)?.[1] as ConfigBackupKind;
      if (head.success) {
        view = { file: name, kind, software_version: head.data.software_version, format_version: head.data.format_version, created_at: head.data.created_at, device: head.data.device, size: info.size };
      }
    } catch {
      view = null;
    }
    this.#cache.set(name, { mtimeMs: info.mtimeMs, view });
    return view;
  }

  async prune(): Promise<void> {
    const names = (await readdir(this.dir)).filter((name) => configBackupNamePattern.test(name)).sort();
    // Names start with the UTC time, so the oldest sort first.
    for (const name of names.slice(0, Math.max(0, names.length - configBackupsKept))) {
      await rm(join(this.dir, name), { force: true });
      this.#cache.delete(name);
    }
  }
}
