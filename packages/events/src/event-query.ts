import type { EventPage, EventQuery, EventRecord } from '@rampart/contracts';
import type { Db } from '@rampart/sqlite';
import { eventColumns, toEventRecord } from './event-rows.ts';
import { addCond, addOlderThan, containsPattern, emptyWhere, likeSql, num, statementCache, whereSql, type Row, type Where } from './sql.ts';

/** The filters of an event query without its paging. An empty `ip` means no IP filter. */
export type EventFilter = Omit<EventQuery, 'before' | 'limit'>;

const keywordColumns = ['account', 'ip', 'params', 'detail'] as const;

function filterWhere(filter: EventFilter): Where {
  const where = emptyWhere();
  const add = (cond: string, ...args: Where['args']) => addCond(where, cond, ...args);
  if (filter.from !== undefined) add('time >= ?', filter.from);
  if (filter.to !== undefined) add('time < ?', filter.to);
  if (filter.module !== undefined) add('module = ?', filter.module);
  if (filter.level !== undefined) add('level = ?', filter.level);
  if (filter.ip) add('ip = ?', filter.ip);
  if (filter.keyword) {
    const pattern = containsPattern(filter.keyword.text);
    const any = keywordColumns.map(likeSql);
    const args: Where['args'] = keywordColumns.map(() => pattern);
    for (const text of filter.keyword.params ?? []) {
      any.push(likeSql('params'));
      args.push(containsPattern(text));
    }
    if (filter.keyword.kinds.length > 0) {
      any.push('kind IN (SELECT value FROM json_each(?))');
      args.push(JSON.stringify(filter.keyword.kinds));
    }
    add(`(${any.join(' OR ')})`, ...args);
  }
  return where;
}

export interface EventReader {
  query(q: EventQuery): EventPage;
  get(id: number): EventRecord | null;
  /** SQL and arguments `query` would run, for EXPLAIN QUERY PLAN. */
  querySql(q: EventQuery): { sql: string; args: Where['args'] } | null;
  /** Rows in [from, to) oldest first (time, then id), `size` at a time; no statement stays open between chunks. */
  chunks(from: number, to: number, filter: Omit<EventFilter, 'from' | 'to'>, size: number): Generator<EventRecord[]>;
}

export function eventReader(db: Db): EventReader {
  const prepared = statementCache(db);
  const byId = db.prepare(`SELECT ${eventColumns} FROM events WHERE id = ?`);
  const timeOf = db.prepare('SELECT time FROM events WHERE id = ?');

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
      const built = querySql(q);
      if (!built) return { list: [], more: false };
      const rows = prepared(built.sql).all(...built.args) as Row[];
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
