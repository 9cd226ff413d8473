import type { Db } from '@rampart/sqlite';
import type { ProcessRuleFields } from '@rampart/contracts';
import { likePattern } from '../firewall/rules-repo.ts';

type Row = Record<string, unknown>;
type Body = Omit<ProcessRuleFields, 'enabled' | 'process' | 'remark'>;

/** A stored process rule (its states come from the guard, not from here). */
export interface StoredProcessRule extends ProcessRuleFields {
  id: number;
  created_at: number;
  updated_at: number;
}

function toRule(row: Row): StoredProcessRule {
  const body = JSON.parse(String(row['body'])) as Body;
  return {
    id: Number(row['id']),
    enabled: Number(row['enabled']) === 1,
    process: String(row['process']),
    deny_start: body.deny_start,
    deny_tcp: body.deny_tcp,
    deny_udp: body.deny_udp,
    allow_ips: body.allow_ips,
    allow_areas: body.allow_areas,
    files: body.files,
    whitelist: body.whitelist,
    notify: body.notify,
    remark: String(row['remark']),
    created_at: Number(row['created_at']),
    updated_at: Number(row['updated_at']),
  };
}

function bodyOf(fields: ProcessRuleFields): string {
  const body: Body = {
    deny_start: fields.deny_start,
    deny_tcp: fields.deny_tcp,
    deny_udp: fields.deny_udp,
    allow_ips: [...new Set(fields.allow_ips)],
    allow_areas: [...new Set(fields.allow_areas)],
    files: fields.files.map((file) => ({ ...file, ops: [...new Set(file.ops)] })),
    whitelist: [...new Set(fields.whitelist)],
    notify: fields.notify,
  };
  return JSON.stringify(body);
}

/** Process protection's rules, listed by id. */
export class ProcessRulesRepo {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  all(): StoredProcessRule[] {
    return this.#db.prepare('SELECT * FROM process_rules ORDER BY id').all().map(toRule);
  }

  page(keyword: string | undefined, offset: number, limit: number): { total: number; list: StoredProcessRule[] } {
    const where = keyword ? `WHERE process LIKE ? ESCAPE '\\' OR remark LIKE ? ESCAPE '\\'` : '';
    const args = keyword ? Array<string>(2).fill(likePattern(keyword)) : [];
    const total = Number(this.#db.prepare(`SELECT count(*) AS n FROM process_rules ${where}`).get(...args)?.['n'] ?? 0);
    const list = this.#db.prepare(`SELECT * FROM process_rules ${where} ORDER BY id LIMIT ? OFFSET ?`).all(...args, limit, offset).map(toRule);
    return { total, list };
  }

  /** The id of another rule for the same executable pattern, if any. */
  findByProcess(process: string, exceptId = 0): number | null {
    const row = this.#db.prepare('SELECT id FROM process_rules WHERE process = ? AND id != ?').get(process, exceptId);
    return row ? Number(row['id']) : null;
  }

  get(id: number): StoredProcessRule | null {
    const row = this.#db.prepare('SELECT * FROM process_rules WHERE id = ?').get(id);
    return row ? toRule(row) : null;
  }

  insert(fields: ProcessRuleFields, now: number): number {
    const result = this.#db
      .prepare('INSERT INTO process_rules (enabled, process, body, remark, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(fields.enabled ? 1 : 0, fields.process, bodyOf(fields), fields.remark, now, now);
    return Number(result.lastInsertRowid);
  }

  update(id: number, fields: ProcessRuleFields, now: number): boolean {
    const result = this.#db
      .prepare('UPDATE process_rules SET enabled = ?, process = ?, body = ?, remark = ?, updated_at = ? WHERE id = ?')
      .run(fields.enabled ? 1 : 0, fields.process, bodyOf(fields), fields.remark, now, id);
    return Number(result.changes) > 0;
  }

  /** The ids whose flag actually changed. */
  setEnabled(ids: readonly number[], enabled: boolean, now: number): number[] {
    const statement = this.#db.prepare('UPDATE process_rules SET enabled = ?, updated_at = ? WHERE id = ? AND enabled != ?');
    return ids.filter((id) => Number(statement.run(enabled ? 1 : 0, now, id, enabled ? 1 : 0).changes) > 0);
  }

  /** The ids actually deleted. */
  delete(ids: readonly number[]): number[] {
    const statement = this.#db.prepare('DELETE FROM process_rules WHERE id = ?');
    return ids.filter((id) => Number(statement.run(id).changes) > 0);
  }
}
