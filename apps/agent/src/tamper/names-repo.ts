import type { Db } from '@rampart/sqlite';
import type { NamingRuleFields } from '@rampart/contracts';
import { likePattern } from '../firewall/rules-repo.ts';

type Row = Record<string, unknown>;

/** A stored naming rule (its `state` comes from the guard). */
export interface StoredNamingRule extends NamingRuleFields {
  id: number;
  created_at: number;
  updated_at: number;
}

function toRule(row: Row): StoredNamingRule {
  return {
    id: Number(row['id']),
    enabled: Number(row['enabled']) === 1,
    dir: String(row['dir']),
    deny_dirs: JSON.parse(String(row['deny_dirs'])) as string[],
    deny_files: JSON.parse(String(row['deny_files'])) as string[],
    deny_malformed: Number(row['deny_malformed']) === 1,
    notify: Number(row['notify']) === 1,
    remark: String(row['remark']),
    created_at: Number(row['created_at']),
    updated_at: Number(row['updated_at']),
  };
}

/** Naming rules: which new names a directory (and everything below it) refuses. */
export class NamingRulesRepo {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  all(): StoredNamingRule[] {
    return this.#db.prepare('SELECT * FROM naming_rules ORDER BY id').all().map(toRule);
  }

  page(keyword: string | undefined, offset: number, limit: number): { total: number; list: StoredNamingRule[] } {
    const where = keyword ? `WHERE dir LIKE ? ESCAPE '\\' OR deny_dirs LIKE ? ESCAPE '\\' OR deny_files LIKE ? ESCAPE '\\' OR remark LIKE ? ESCAPE '\\'` : '';
    const args = keyword ? Array<string>(4).fill(likePattern(keyword)) : [];
    const total = Number(this.#db.prepare(`SELECT count(*) AS n FROM naming_rules ${where}`).get(...args)?.['n'] ?? 0);
    const list = this.#db.prepare(`SELECT * FROM naming_rules ${where} ORDER BY id LIMIT ? OFFSET ?`).all(...args, limit, offset).map(toRule);
    return { total, list };
  }

  get(id: number): StoredNamingRule | null {
    const row = this.#db.prepare('SELECT * FROM naming_rules WHERE id = ?').get(id);
    return row ? toRule(row) : null;
  }

  insert(fields: NamingRuleFields, now: number): number {
    const result = this.#db
      .prepare('INSERT INTO naming_rules (enabled, dir, deny_dirs, deny_files, deny_malformed, notify, remark, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(fields.enabled ? 1 : 0, fields.dir, JSON.stringify(fields.deny_dirs), JSON.stringify(fields.deny_files), fields.deny_malformed ? 1 : 0, fields.notify ? 1 : 0, fields.remark, now, now);
    return Number(result.lastInsertRowid);
  }

  update(id: number, fields: NamingRuleFields, now: number): boolean {
    const result = this.#db
      .prepare('UPDATE naming_rules SET enabled = ?, dir = ?, deny_dirs = ?, deny_files = ?, deny_malformed = ?, notify = ?, remark = ?, updated_at = ? WHERE id = ?')
      .run(fields.enabled ? 1 : 0, fields.dir, JSON.stringify(fields.deny_dirs), JSON.stringify(fields.deny_files), fields.deny_malformed ? 1 : 0, fields.notify ? 1 : 0, fields.remark, now, id);
    return Number(result.changes) > 0;
  }

  setEnabled(ids: readonly number[], enabled: boolean, now: number): number[] {
    const statement = this.#db.prepare('UPDATE naming_rules SET enabled = ?, updated_at = ? WHERE id = ? AND enabled != ?');
    return ids.filter((id) => Number(statement.run(enabled ? 1 : 0, now, id, enabled ? 1 : 0).changes) > 0);
  }

  delete(ids: readonly number[]): number[] {
    const statement = this.#db.prepare('DELETE FROM naming_rules WHERE id = ?');
    return ids.filter((id) => Number(statement.run(id).changes) > 0);
  }
}
