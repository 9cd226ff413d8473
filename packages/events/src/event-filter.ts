import type { EventQuery } from '@rampart/contracts';
import { addCond, containsPattern, emptyWhere, likeSql, type Where } from './sql.ts';

/** The filters of an event query without its paging. An empty `ip` means no IP filter. */
export type EventFilter = Omit<EventQuery, 'before' | 'limit'>;

const keywordColumns = ['account', 'ip', 'params', 'detail'] as const;

/**
 * The keyword condition as LIKE (case-insensitive for ASCII only, `%` and `_` literal): the one
 * definition of what a keyword matches. The full-text index only narrows the rows it is tested on.
 */
export function keywordCond(keyword: NonNullable<EventFilter['keyword']>): { sql: string; args: Where['args'] } {
  const pattern = containsPattern(keyword.text);
  const any: string[] = keywordColumns.map(likeSql);
  const args: Where['args'] = keywordColumns.map(() => pattern);
  for (const text of keyword.params ?? []) {
    any.push(likeSql('params'));
    args.push(containsPattern(text));
  }
  if (keyword.kinds.length > 0) {
    any.push('kind IN (SELECT value FROM json_each(?))');
    args.push(JSON.stringify(keyword.kinds));
  }
  return { sql: `(${any.join(' OR ')})`, args };
}

/** WHERE conditions for the filters; the keyword one only when `withKeyword`. */
export function filterWhere(filter: EventFilter, withKeyword = true): Where {
  const where = emptyWhere();
  const add = (cond: string, ...args: Where['args']) => addCond(where, cond, ...args);
  if (filter.from !== undefined) add('time >= ?', filter.from);
  if (filter.to !== undefined) add('time < ?', filter.to);
  if (filter.module !== undefined) add('module = ?', filter.module);
  if (filter.level !== undefined) add('level = ?', filter.level);
  if (filter.ip) add('ip = ?', filter.ip);
  if (filter.keyword && withKeyword) {
    const { sql, args } = keywordCond(filter.keyword);
    add(sql, ...args);
  }
  return where;
}
