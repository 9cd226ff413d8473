import type { WebsiteAuthorEntry, WebsiteInterceptEntry } from '@rampart/contracts';
import type { Db } from '../db/database.ts';

/** The interception list and the authorization list (kept by the console until the gateway reports its own blocks). */
export type TimedList = 'intercept' | 'author';
type Entry = WebsiteInterceptEntry | WebsiteAuthorEntry;

/** Expired entries are left out of every read; they are purged on the next write. */
export function listTimed(db: Db, list: TimedList, now: number, options: { keyword: string; offset: number; limit: number }): { list: Entry[]; total: number } {
  const filter = 'list = :list AND expires_at > :now AND instr(ip, :keyword) > 0';
  const params = { list, now, keyword: options.keyword };
  const total = Number((db.prepare(`SELECT count(*) AS n FROM website_timed WHERE ${filter}`).get(params) as { n: number }).n);
  const rows = db
    .prepare(`SELECT ip, reason, detail, created_at, expires_at FROM website_timed WHERE ${filter} ORDER BY created_at DESC, ip LIMIT :limit OFFSET :offset`)
    .all({ ...params, limit: options.limit, offset: options.offset }) as unknown as Entry[];
  return { list: rows, total };
}

/** Adds or renews addresses by hand (reason `manual`); an address already listed gets the new end time. */
export function addTimed(db: Db, list: TimedList, ips: readonly string[], minutes: number, remark: string, now: number): number {
  db.prepare('DELETE FROM website_timed WHERE list = ? AND expires_at <= ?').run(list, now);
  const upsert = db.prepare(
    `INSERT INTO website_timed (list, ip, reason, detail, created_at, expires_at) VALUES (?, ?, 'manual', ?, ?, ?)
     ON CONFLICT (list, ip) DO UPDATE SET reason = 'manual', detail = excluded.detail, created_at = excluded.created_at, expires_at = excluded.expires_at`,
  );
  for (const ip of new Set(ips)) upsert.run(list, ip, remark, now, now + minutes * 60_000);
  return new Set(ips).size;
}

export function deleteTimed(db: Db, list: TimedList, ips: readonly string[]): number {
  const remove = db.prepare('DELETE FROM website_timed WHERE list = ? AND ip = ?');
  return ips.reduce((count, ip) => count + Number(remove.run(list, ip).changes), 0);
}
