import type { Db } from '@rampart/sqlite';
import { commonAreaIdOf, commonAreaRef, type CommonArea, type CommonAreaFields, type FirewallRule } from '@rampart/contracts';
import { likePattern } from './rules-repo.ts';

type Row = Record<string, unknown>;

export interface StoredCommonArea {
  id: number;
  name: string;
  members: string[];
  remark: string;
  created_at: number;
  updated_at: number;
}

function toArea(row: Row): StoredCommonArea {
  return {
    id: Number(row['id']),
    name: String(row['name']),
    members: JSON.parse(String(row['members'])) as string[],
    remark: String(row['remark']),
    created_at: Number(row['created_at']),
    updated_at: Number(row['updated_at']),
  };
}

/** How many of `rules` reference common area `id`. */
export function rulesUsing(rules: readonly FirewallRule[], id: number): number {
  const ref = commonAreaRef(id);
  return rules.filter((rule) => rule.areas.includes(ref)).length;
}

/**
 * Rules as the planner and the evaluator need them: each `common:<id>` replaced by the area's
 * members (countries and provinces), duplicates folded. A reference to an area that is gone
 * expands to nothing (deleting a used area is refused, so this only guards a damaged store).
 */
export function expandRuleAreas(rules: readonly FirewallRule[], members: (id: number) => readonly string[] | null): FirewallRule[] {
  return rules.map((rule) => (rule.areas.some((code) => commonAreaIdOf(code) !== null) ? { ...rule, areas: expandAreaCodes(rule.areas, members) } : rule));
}

/** Area codes with each `common:<id>` replaced by its members, duplicates folded (an area that is gone names none). */
export function expandAreaCodes(codes: readonly string[], members: (id: number) => readonly string[] | null): string[] {
  const out = new Set<string>();
  for (const code of codes) {
    const id = commonAreaIdOf(code);
    if (id === null) out.add(code);
    else for (const member of members(id) ?? []) out.add(member);
  }
  return [...out];
}

/** Common areas: named, reusable sets of countries and Chinese provinces for firewall rules. */
export class CommonAreasRepo {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  get(id: number): StoredCommonArea | null {
    const row = this.#db.prepare('SELECT * FROM common_areas WHERE id = ?').get(id);
    return row ? toArea(row) : null;
  }

  /** Members of every area, by id: one read per ruleset build. */
  membersById(): Map<number, string[]> {
    const rows = this.#db.prepare('SELECT id, members FROM common_areas').all();
    return new Map(rows.map((row) => [Number(row['id']), JSON.parse(String(row['members'])) as string[]]));
  }

  nameTaken(name: string, exceptId: number | null): boolean {
    const row = this.#db.prepare('SELECT id FROM common_areas WHERE name = ? COLLATE NOCASE AND id != ?').get(name, exceptId ?? 0);
    return row !== undefined;
  }

  page(keyword: string | undefined, offset: number, limit: number, rules: readonly FirewallRule[]): { total: number; list: CommonArea[] } {
    const where = keyword ? `WHERE name LIKE ? ESCAPE '\\' OR members LIKE ? ESCAPE '\\' OR remark LIKE ? ESCAPE '\\'` : '';
    const args = keyword ? Array<string>(3).fill(likePattern(keyword)) : [];
    const total = Number(this.#db.prepare(`SELECT count(*) AS n FROM common_areas ${where}`).get(...args)?.['n'] ?? 0);
    const rows = this.#db.prepare(`SELECT * FROM common_areas ${where} ORDER BY id DESC LIMIT ? OFFSET ?`).all(...args, limit, offset);
    return { total, list: rows.map(toArea).map((area) => ({ ...area, rules: rulesUsing(rules, area.id) })) };
  }

  insert(fields: CommonAreaFields, now: number): number {
    const result = this.#db
      .prepare('INSERT INTO common_areas (name, members, remark, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
      .run(fields.name, JSON.stringify(fields.members), fields.remark, now, now);
    return Number(result.lastInsertRowid);
  }

  update(id: number, fields: CommonAreaFields, now: number): boolean {
    const result = this.#db
      .prepare('UPDATE common_areas SET name = ?, members = ?, remark = ?, updated_at = ? WHERE id = ?')
      .run(fields.name, JSON.stringify(fields.members), fields.remark, now, id);
    return Number(result.changes) > 0;
  }

  /** Puts an area back exactly as it was (a rolled-back edit). */
  restore(area: StoredCommonArea): void {
    this.#db
      .prepare('INSERT INTO common_areas (id, name, members, remark, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name, members = excluded.members, remark = excluded.remark, updated_at = excluded.updated_at')
      .run(area.id, area.name, JSON.stringify(area.members), area.remark, area.created_at, area.updated_at);
  }

  delete(ids: readonly number[]): number {
    const statement = this.#db.prepare('DELETE FROM common_areas WHERE id = ?');
    return ids.reduce((n, id) => n + Number(statement.run(id).changes), 0);
  }
}
