import type { SQLInputValue, SQLOutputValue, StatementSync } from 'node:sqlite';
import type { Db } from '@rampart/sqlite';

export type Row = Record<string, SQLOutputValue>;

/** WHERE conditions (joined with AND) and their positional arguments. */
export interface Where {
  conds: string[];
  args: SQLInputValue[];
}

export function emptyWhere(): Where {
  return { conds: [], args: [] };
}

export function addCond(where: Where, cond: string, ...args: SQLInputValue[]): void {
  where.conds.push(cond);
  where.args.push(...args);
}

export function whereSql(where: Where): string {
  return where.conds.length > 0 ? `WHERE ${where.conds.join(' AND ')}` : '';
}

/** A LIKE pattern matching `text` anywhere (LIKE is case-insensitive for ASCII); use with ESCAPE '\'. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `column LIKE ? ESCAPE '\'` */
export function likeSql(column: string): string {
  return `${column} LIKE ? ESCAPE '\\'`;
}

/**
 * Keyset step for newest-first pages ordered by (time DESC, id DESC): rows after the row
 * (time, id) = (`time`, `id`). `time <= ?` keeps the time index usable.
 */
export function addOlderThan(where: Where, time: number, id: number): void {
  where.conds.push('time <= ?', '(time < ? OR id < ?)');
  where.args.push(time, time, id);
}

/** Prepared statements by SQL text: filtered queries have a bounded number of shapes. */
export function statementCache(db: Db): (sql: string) => StatementSync {
  const cache = new Map<string, StatementSync>();
  return (sql) => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  };
}

export function str(value: SQLOutputValue | undefined): string {
  return typeof value === 'string' ? value : String(value ?? '');
}

export function num(value: SQLOutputValue | undefined): number {
  return Number(value ?? 0);
}
