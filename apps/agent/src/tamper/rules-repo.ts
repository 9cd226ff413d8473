import type { Db } from '@rampart/sqlite';
import type { TamperOp, TamperRuleFields } from '@rampart/contracts';
import { likePattern } from '../firewall/rules-repo.ts';

type Row = Record<string, unknown>;

/** A stored file rule (its `state` comes from the guard, not from here). */
export interface StoredTamperRule extends TamperRuleFields {
  id: number;
  created_at: number;
  updated_at: number;
}

function toRule(row: Row): StoredTamperRule {
  return {
    id: Number(row['id']),
    enabled: Number(row['enabled']) === 1,
    path: String(row['path']),
    sub_path: String(row['sub_path']),
    process: String(row['process']),
    exempt: JSON.parse(String(row['exempt'])) as string[],
    level: Number(row['level']),
    ops: JSON.parse(String(row['ops'])) as TamperOp[],
    notify: Number(row['notify']) === 1,
    remark: String(row['remark']),
    created_at: Number(row['created_at']),
    updated_at: Number(row['updated_at']),
  };
}

/** Tamper protection's file rules, listed by level (1 first) then id. */
export class TamperRulesRepo {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  all(): StoredTamperRule[] {
    return this.#db.prepare('SELECT * FROM tamper_rules ORDER BY level, id').all().map(toRule);
  }

  page(keyword: string | undefined, offset: number, limit: number): { total: number; list: StoredTamperRule[] } {
    const where = keyword ? `WHERE path LIKE ? ESCAPE '\\' OR sub_path LIKE ? ESCAPE '\\' OR process LIKE ? ESCAPE '\\' OR remark LIKE ? ESCAPE '\\'` : '';
    const args = keyword ? Array<string>(4).fill(likePattern(keyword)) : [];
    const total = Number(this.#db.prepare(`SELECT count(*) AS n FROM tamper_rules ${where}`).get(...args)?.['n'] ?? 0);
    const list = this.#db.prepare(`SELECT * FROM tamper_rules ${where} ORDER BY level, id LIMIT ? OFFSET ?`).all(...args, limit, offset).map(toRule);
    return { total, list };
  }

  get(id: number): StoredTamperRule | null {
    const row = this.#db.prepare('SELECT * FROM tamper_rules WHERE id = ?').get(id);
    return row ? toRule(row) : null;
  }

  insert(fields: TamperRuleFields, now: number): number {
    const result = this.#db
      .prepare('INSERT INTO tamper_rules (enabled, path, sub_path, process, exempt, level, ops, notify, remark, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(fields.enabled ? 1 : 0, fields.path, fields.sub_path, fields.process, JSON.stringify(fields.exempt), fields.level, JSON.stringify([...new Set(fields.ops)]), fields.notify ? 1 : 0, fields.remark, now, now);
    return Number(result.lastInsertRowid);
  }

  update(id: number, fields: TamperRuleFields, now: number): boolean {
    const result = this.#db
      .prepare('UPDATE tamper_rules SET enabled = ?, path = ?, sub_path = ?, process = ?, exempt = ?, level = ?, ops = ?, notify = ?, remark = ?, updated_at = ? WHERE id = ?')
      .run(fields.enabled ? 1 : 0, fields.path, fields.sub_path, fields.process, JSON.stringify(fields.exempt), fields.level, JSON.stringify([...new Set(fields.ops)]), fields.notify ? 1 : 0, fields.remark, now, id);
    return Number(result.changes) > 0;
  }

  /** The ids whose flag actually changed. */
  setEnabled(ids: readonly number[], enabled: boolean, now: number): number[] {
    const statement = this.#db.prepare('UPDATE tamper_rules SET enabled = ?, updated_at = ? WHERE id = ? AND enabled != ?');
    return ids.filter((id) => Number(statement.run(enabled ? 1 : 0, now, id, enabled ? 1 : 0).changes) > 0);
  }

  /** The ids actually deleted. */
  delete(ids: readonly number[]): number[] {
    const statement = this.#db.prepare('DELETE FROM tamper_rules WHERE id = ?');
    return ids.filter((id) => Number(statement.run(id).changes) > 0);
  }
}
