import type { GatewayTimedLists, WebsiteAuthorEntry, WebsiteInterceptEntry } from '@rampart/contracts';
import type { Db } from '../db/database.ts';

/**
 * The interception list and the authorization list: the console's copy. Entries come from the
 * console (by hand) and from the gateway (its own blocks and password grants, drained by
 * gateway-events.ts); the gateway holds the live lists and starts from this copy (policy.timed).
 */
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

/** The entries an addition by hand makes (reason `manual`, the remark as detail): stored, and sent to the running gateway. */
export function manualEntries(ips: readonly string[], minutes: number, remark: string, now: number): (WebsiteInterceptEntry & WebsiteAuthorEntry)[] {
  return [...new Set(ips)].map((ip) => ({ ip, reason: 'manual', detail: remark, created_at: now, expires_at: now + minutes * 60_000 }));
}

/** Adds or renews entries; an address already listed takes the new entry (reason, detail, times). */
export function putTimed(db: Db, list: TimedList, entries: readonly Entry[], now: number): number {
  db.prepare('DELETE FROM website_timed WHERE list = ? AND expires_at <= ?').run(list, now);
  const upsert = db.prepare(
    `INSERT INTO website_timed (list, ip, reason, detail, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (list, ip) DO UPDATE SET reason = excluded.reason, detail = excluded.detail, created_at = excluded.created_at, expires_at = excluded.expires_at`,
  );
  for (const e of entries) upsert.run(list, e.ip, e.reason, e.detail.slice(0, 1000), e.created_at, e.expires_at);
  return entries.length;
}

/** Adds or renews addresses by hand (reason `manual`); an address already listed gets the new end time. */
export function addTimed(db: Db, list: TimedList, ips: readonly string[], minutes: number, remark: string, now: number): number {
  return putTimed(db, list, manualEntries(ips, minutes, remark, now), now);
}

export function deleteTimed(db: Db, list: TimedList, ips: readonly string[]): number {
  const remove = db.prepare('DELETE FROM website_timed WHERE list = ? AND ip = ?');
  return ips.reduce((count, ip) => count + Number(remove.run(list, ip).changes), 0);
}

/** The gateway schema's ceiling per list; the newest entries win past it. */
const maxTimed = 200_000;

/** Both lists as the gateway starts with them: entries active now, oldest first. */
export function activeTimed(db: Db, now: number): GatewayTimedLists {
  const read = (list: TimedList) =>
    (db.prepare('SELECT ip, reason, detail, created_at, expires_at FROM website_timed WHERE list = ? AND expires_at > ? ORDER BY created_at DESC, ip LIMIT ?').all(list, now, maxTimed) as unknown as Entry[]).reverse();
  return { intercepted: read('intercept') as WebsiteInterceptEntry[], authorized: read('author') as WebsiteAuthorEntry[] };
}
