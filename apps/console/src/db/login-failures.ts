import { localDay } from '@rampart/contracts';
import type { Db } from './database.ts';

// A failure counts against the local calendar day it happened on ("blocked per day").

export function failuresToday(db: Db, ip: string, now: number): number {
  const row = db.prepare('SELECT count FROM login_failures WHERE ip = ? AND day = ?').get(ip, localDay(now)) as
    | { count: number }
    | undefined;
  return row?.count ?? 0;
}

export function addFailure(db: Db, ip: string, now: number): number {
  const day = localDay(now);
  db.prepare(
    'INSERT INTO login_failures (ip, day, count) VALUES (?, ?, 1) ON CONFLICT(ip, day) DO UPDATE SET count = count + 1',
  ).run(ip, day);
  db.prepare('DELETE FROM login_failures WHERE day < ?').run(day);
  return failuresToday(db, ip, now);
}

export function clearFailures(db: Db, ip: string, now: number): void {
  db.prepare('DELETE FROM login_failures WHERE ip = ? AND day = ?').run(ip, localDay(now));
}
