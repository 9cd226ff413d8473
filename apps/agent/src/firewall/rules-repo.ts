import type { Db } from '@rampart/sqlite';
import type { FirewallDirection, FirewallRule, FirewallRuleFields } from '@rampart/contracts';

type Row = Record<string, unknown>;

function toRule(row: Row): FirewallRule {
  return {
    id: Number(row['id']),
    direction: row['direction'] as FirewallRule['direction'],
    protocol: row['protocol'] as FirewallRule['protocol'],
    ports: String(row['ports']),
    ips: JSON.parse(String(row['ips'])) as string[],
    areas: JSON.parse(String(row['areas'])) as string[],
    action: row['action'] as FirewallRule['action'],
    priority: Number(row['priority']),
    enabled: Number(row['enabled']) === 1,
    remark: String(row['remark']),
    created_at: Number(row['created_at']),
    updated_at: Number(row['updated_at']),
  };
}

export function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Inbound and outbound rules. */
export class RulesRepo {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  all(): FirewallRule[] {
    return this.#db.prepare('SELECT * FROM rules ORDER BY id').all().map(toRule);
  }

  page(direction: FirewallDirection, keyword: string | undefined, offset: number, limit: number): { total: number; list: FirewallRule[] } {
    const where = keyword ? `direction = ? AND (ports LIKE ? ESCAPE '\\' OR ips LIKE ? ESCAPE '\\' OR areas LIKE ? ESCAPE '\\' OR remark LIKE ? ESCAPE '\\')` : 'direction = ?';
    const args = keyword ? [direction, ...Array<string>(4).fill(likePattern(keyword))] : [direction];
    const total = Number(this.#db.prepare(`SELECT count(*) AS n FROM rules WHERE ${where}`).get(...args)?.['n'] ?? 0);
    const list = this.#db.prepare(`SELECT * FROM rules WHERE ${where} ORDER BY priority, id LIMIT ? OFFSET ?`).all(...args, limit, offset).map(toRule);
    return { total, list };
  }

  get(id: number): FirewallRule | null {
    const row = this.#db.prepare('SELECT * FROM rules WHERE id = ?').get(id);
    return row ? toRule(row) : null;
  }

  insert(fields: FirewallRuleFields, now: number): number {
    const result = this.#db
      .prepare('INSERT INTO rules (direction, protocol, ports, ips, areas, action, priority, enabled, remark, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(fields.direction, fields.protocol, fields.ports, JSON.stringify(fields.ips), JSON.stringify(fields.areas), fields.action, fields.priority, fields.enabled ? 1 : 0, fields.remark, now, now);
    return Number(result.lastInsertRowid);
  }

  update(id: number, fields: FirewallRuleFields, now: number): boolean {
    const result = this.#db
      .prepare('UPDATE rules SET direction = ?, protocol = ?, ports = ?, ips = ?, areas = ?, action = ?, priority = ?, enabled = ?, remark = ?, updated_at = ? WHERE id = ?')
      .run(fields.direction, fields.protocol, fields.ports, JSON.stringify(fields.ips), JSON.stringify(fields.areas), fields.action, fields.priority, fields.enabled ? 1 : 0, fields.remark, now, id);
    return Number(result.changes) > 0;
  }

  setEnabled(ids: readonly number[], enabled: boolean, now: number): number {
    const statement = this.#db.prepare('UPDATE rules SET enabled = ?, updated_at = ? WHERE id = ? AND enabled != ?');
    return ids.reduce((n, id) => n + Number(statement.run(enabled ? 1 : 0, now, id, enabled ? 1 : 0).changes), 0);
  }

  delete(ids: readonly number[]): number {
    const statement = this.#db.prepare('DELETE FROM rules WHERE id = ?');
    return ids.reduce((n, id) => n + Number(statement.run(id).changes), 0);
  }

  /** Puts back rules exactly as they were (a rolled-back change). */
  restore(rules: readonly FirewallRule[]): void {
    this.#db.exec('DELETE FROM rules');
    const statement = this.#db.prepare(
      'INSERT INTO rules (id, direction, protocol, ports, ips, areas, action, priority, enabled, remark, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const r of rules) {
      statement.run(r.id, r.direction, r.protocol, r.ports, JSON.stringify(r.ips), JSON.stringify(r.areas), r.action, r.priority, r.enabled ? 1 : 0, r.remark, r.created_at, r.updated_at);
    }
  }

  counts(): { in: number; out: number } {
    const rows = this.#db.prepare('SELECT direction, count(*) AS n FROM rules GROUP BY direction').all();
    const of = (direction: string) => Number(rows.find((row) => row['direction'] === direction)?.['n'] ?? 0);
    return { in: of('in'), out: of('out') };
  }
}
