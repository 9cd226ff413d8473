import type { Db } from '@rampart/sqlite';
import { defaultTrojanSettings, trojanSettingsSchema, type TrojanLibrary, type TrojanSettings } from '@rampart/contracts';
import { likePattern } from '../firewall/rules-repo.ts';

type Row = Record<string, unknown>;

/** A stored protected directory (its watch state comes from the service). */
export interface StoredTrojanDir {
  id: number;
  path: string;
  enabled: boolean;
  remark: string;
  site: string;
  created: number;
}

const toDir = (row: Row): StoredTrojanDir => ({
  id: Number(row['id']),
  path: String(row['path']),
  enabled: Number(row['enabled']) === 1,
  remark: String(row['remark']),
  site: String(row['site']),
  created: Number(row['created_at']),
});

/** Settings, protected directories, the custom library and trusted hashes. */
export class TrojanRepo {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  /** The stored settings; a row that no longer parses (an older build's) falls back to the defaults. */
  settings(): TrojanSettings {
    const row = this.#db.prepare('SELECT body FROM trojan_settings WHERE id = 1').get();
    if (!row) return structuredClone(defaultTrojanSettings);
    const parsed = trojanSettingsSchema.safeParse({ ...defaultTrojanSettings, ...(JSON.parse(String(row['body'])) as object) });
    return parsed.success ? parsed.data : structuredClone(defaultTrojanSettings);
  }

  setSettings(settings: TrojanSettings): void {
    this.#db.prepare('INSERT INTO trojan_settings (id, body) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body').run(JSON.stringify(settings));
  }

  dirs(): StoredTrojanDir[] {
    return this.#db.prepare('SELECT * FROM trojan_dirs ORDER BY id').all().map(toDir);
  }

  dirPage(keyword: string | undefined, offset: number, limit: number): { total: number; list: StoredTrojanDir[] } {
    const where = keyword ? "path LIKE ? ESCAPE '\\' OR remark LIKE ? ESCAPE '\\' OR site LIKE ? ESCAPE '\\'" : '1';
    const args = keyword ? Array<string>(3).fill(likePattern(keyword)) : [];
    const total = Number(this.#db.prepare(`SELECT count(*) AS n FROM trojan_dirs WHERE ${where}`).get(...args)?.['n'] ?? 0);
    const list = this.#db.prepare(`SELECT * FROM trojan_dirs WHERE ${where} ORDER BY id LIMIT ? OFFSET ?`).all(...args, limit, offset).map(toDir);
    return { total, list };
  }

  dir(id: number): StoredTrojanDir | null {
    const row = this.#db.prepare('SELECT * FROM trojan_dirs WHERE id = ?').get(id);
    return row ? toDir(row) : null;
  }

  dirByPath(path: string): StoredTrojanDir | null {
    const row = this.#db.prepare('SELECT * FROM trojan_dirs WHERE path = ?').get(path);
    return row ? toDir(row) : null;
  }

  insertDir(dir: { path: string; remark: string; site: string }, now: number): number {
    const result = this.#db.prepare('INSERT INTO trojan_dirs (path, enabled, remark, site, created_at) VALUES (?, 1, ?, ?, ?)').run(dir.path, dir.remark, dir.site, now);
    return Number(result.lastInsertRowid);
  }

  setRemark(id: number, remark: string): boolean {
    return Number(this.#db.prepare('UPDATE trojan_dirs SET remark = ? WHERE id = ?').run(remark, id).changes) > 0;
  }

  /** The ids whose switch changed. */
  setEnabled(ids: readonly number[], enabled: boolean): number[] {
    const statement = this.#db.prepare('UPDATE trojan_dirs SET enabled = ? WHERE id = ? AND enabled != ?');
    return [...new Set(ids)].filter((id) => Number(statement.run(enabled ? 1 : 0, id, enabled ? 1 : 0).changes) > 0);
  }

  deleteDirs(ids: readonly number[]): number[] {
    const statement = this.#db.prepare('DELETE FROM trojan_dirs WHERE id = ?');
    return [...new Set(ids)].filter((id) => Number(statement.run(id).changes) > 0);
  }

  library(): TrojanLibrary {
    const row = this.#db.prepare('SELECT rules, hashes FROM trojan_library WHERE id = 1').get();
    if (!row) return { rules: '', hashes: [] };
    return { rules: String(row['rules']), hashes: JSON.parse(String(row['hashes'])) as string[] };
  }

  setLibrary(library: TrojanLibrary): void {
    this.#db.prepare('INSERT INTO trojan_library (id, rules, hashes) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET rules = excluded.rules, hashes = excluded.hashes')
      .run(library.rules, JSON.stringify(library.hashes));
  }

  trusted(): Set<string> {
    return new Set(this.#db.prepare('SELECT sha256 FROM trojan_trusted').all().map((row) => String(row['sha256'])));
  }

  trust(sha256: string, path: string, account: string, now: number): void {
    this.#db.prepare('INSERT OR IGNORE INTO trojan_trusted (sha256, path, account, created_at) VALUES (?, ?, ?, ?)').run(sha256, path, account, now);
  }
}
