import type { Db } from '@rampart/sqlite';
import type { InterceptEntry, InterceptReason } from '@rampart/contracts';
import type { PlannedIntercept } from '@rampart/firewall';
import { likePattern } from './rules-repo.ts';

type Row = Record<string, unknown>;

function toEntry(row: Row): InterceptEntry {
  return {
    id: Number(row['id']),
    ip: String(row['ip']),
    reason: row['reason'] as InterceptReason,
    detail: String(row['detail']),
    blocked_at: Number(row['blocked_at']),
    expires_at: Number(row['expires_at']),
  };
}

/** The interception list: one row per blocked address, until its end time. */
export class InterceptsRepo {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  /** Blocks `ip` (again): a later end time wins. Returns true when the address was not blocked. */
  upsert(entry: Omit<InterceptEntry, 'id'>): boolean {
    const existing = this.#db.prepare('SELECT expires_at FROM intercepts WHERE ip = ?').get(entry.ip);
    const live = existing !== undefined && Number(existing['expires_at']) > entry.blocked_at;
    this.#db
      .prepare(
        `INSERT INTO intercepts (ip, reason, detail, blocked_at, expires_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (ip) DO UPDATE SET reason = excluded.reason, detail = excluded.detail, blocked_at = excluded.blocked_at,
           expires_at = max(intercepts.expires_at, excluded.expires_at)`,
      )
      .run(entry.ip, entry.reason, entry.detail, entry.blocked_at, entry.expires_at);
    return !live;
  }

  page(keyword: string | undefined, offset: number, limit: number, now: number): { total: number; list: InterceptEntry[] } {
    const where = keyword ? `expires_at > ? AND (ip LIKE ? ESCAPE '\\' OR reason LIKE ? ESCAPE '\\' OR detail LIKE ? ESCAPE '\\')` : 'expires_at > ?';
    const args = keyword ? [now, likePattern(keyword), likePattern(keyword), likePattern(keyword)] : [now];
    const total = Number(this.#db.prepare(`SELECT count(*) AS n FROM intercepts WHERE ${where}`).get(...args)?.['n'] ?? 0);
    const rows = this.#db.prepare(`SELECT * FROM intercepts WHERE ${where} ORDER BY blocked_at DESC, id DESC LIMIT ? OFFSET ?`).all(...args, limit, offset);
    return { total, list: rows.map(toEntry) };
  }

  active(now: number): PlannedIntercept[] {
    return this.#db
      .prepare('SELECT ip, expires_at FROM intercepts WHERE expires_at > ?')
      .all(now)
      .map((row) => ({ ip: String(row['ip']), expires_at: Number(row['expires_at']) }));
  }

  activeFor(ips: readonly string[], now: number): PlannedIntercept[] {
    const statement = this.#db.prepare('SELECT ip, expires_at FROM intercepts WHERE ip = ? AND expires_at > ?');
    return ips.flatMap((ip) => statement.all(ip, now).map((row) => ({ ip: String(row['ip']), expires_at: Number(row['expires_at']) })));
  }

  isBlocked(ip: string, now: number): boolean {
    return this.#db.prepare('SELECT 1 AS x FROM intercepts WHERE ip = ? AND expires_at > ?').get(ip, now) !== undefined;
  }

  /** Removes by id, or all; returns the addresses removed. */
  delete(target: 'all' | readonly number[]): string[] {
    if (target === 'all') {
      const ips = this.#db.prepare('SELECT ip FROM intercepts').all().map((row) => String(row['ip']));
      this.#db.exec('DELETE FROM intercepts');
      return ips;
    }
    const select = this.#db.prepare('SELECT ip FROM intercepts WHERE id = ?');
    const remove = this.#db.prepare('DELETE FROM intercepts WHERE id = ?');
    const ips: string[] = [];
    for (const id of target) {
      const row = select.get(id);
      if (!row) continue;
      remove.run(id);
      ips.push(String(row['ip']));
    }
    return ips;
  }

  deleteIps(ips: readonly string[]): void {
    const remove = this.#db.prepare('DELETE FROM intercepts WHERE ip = ?');
    for (const ip of ips) remove.run(ip);
  }

  purgeExpired(now: number): number {
    return Number(this.#db.prepare('DELETE FROM intercepts WHERE expires_at <= ?').run(now).changes);
  }

  count(now: number): number {
    return Number(this.#db.prepare('SELECT count(*) AS n FROM intercepts WHERE expires_at > ?').get(now)?.['n'] ?? 0);
  }
}
