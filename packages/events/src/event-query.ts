import type { EventPage, EventQuery, EventRecord } from '@rampart/contracts';
import type { Db } from '@rampart/sqlite';
import { eventColumns, toEventRecord } from './event-rows.ts';
import { filterWhere, type EventFilter } from './event-filter.ts';
import { ftsBackfill } from './fts.ts';
import { keywordSearch } from './keyword-search.ts';
import { addOlderThan, num, statementCache, whereSql, type Row, type Where } from './sql.ts';

export type { EventFilter } from './event-filter.ts';

export interface EventReader {
  query(q: EventQuery): EventPage;
  get(id: number): EventRecord | null;
  /** SQL and arguments `query` would run, for EXPLAIN QUERY PLAN; for a keyword, the plain scan's (keyword-search.ts may find the page faster, with the same rows). */
  querySql(q: EventQuery): { sql: string; args: Where['args'] } | null;
  /** Rows in [from, to) oldest first (time, then id), `size` at a time; no statement stays open between chunks. */
  chunks(from: number, to: number, filter: Omit<EventFilter, 'from' | 'to'>, size: number): Generator<EventRecord[]>;
}

export function eventReader(db: Db): EventReader {
  const prepared = statementCache(db);
  const byId = db.prepare(`SELECT ${eventColumns} FROM events WHERE id = ?`);
  const timeOf = db.prepare('SELECT time FROM events WHERE id = ?');
  const backfill = ftsBackfill(db);
  const keyword = keywordSearch(prepared, (id) => {
    const row = timeOf.get(id);
    return row ? num(row['time']) : null;
  });

  function querySql(q: EventQuery): { sql: string; args: Where['args'] } | null {
    const where = filterWhere(q);
    if (q.before !== undefined) {
      const row = timeOf.get(q.before);
      // The previous page's last row is gone (purged): so is everything older than it.
      if (!row) return null;
      addOlderThan(where, num(row['time']), q.before);
    }
    const sql = `SELECT ${eventColumns} FROM events ${whereSql(where)} ORDER BY time DESC, id DESC LIMIT ?`;
    return { sql, args: [...where.args, q.limit + 1] };
  }

  return {
    querySql,
    query(q) {
      let rows: Row[];
      if (q.keyword) {
        const found = keyword.run(q, backfill.pending() === 0);
        if (!found) return { list: [], more: false };
        rows = found.rows;
      } else {
        const built = querySql(q);
        if (!built) return { list: [], more: false };
        rows = prepared(built.sql).all(...built.args) as Row[];
      }
      const more = rows.length > q.limit;
      return { list: rows.slice(0, q.limit).map(toEventRecord), more };
    },
    get(id) {
      const row = byId.get(id) as Row | undefined;
      return row ? toEventRecord(row) : null;
    },
    *chunks(from, to, filter, size) {
      let last: { time: number; id: number } | null = null;
      for (;;) {
        const where = filterWhere({ ...filter, from, to });
        if (last) {
          where.conds.push('time >= ?', '(time > ? OR id > ?)');
          where.args.push(last.time, last.time, last.id);
        }
        const sql = `SELECT ${eventColumns} FROM events ${whereSql(where)} ORDER BY time, id LIMIT ?`;
        const list = (prepared(sql).all(...where.args, size) as Row[]).map(toEventRecord);
        const tail = list.at(-1);
        if (!tail) return;
        yield list;
        if (list.length < size) return;
        last = { time: tail.time, id: tail.id };
      }
    },
  };
}
