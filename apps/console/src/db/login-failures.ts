import type { Db } from './database.ts';

/** The local calendar day a failure counts against ("blocked per day"). */
export function dayOf(now: number): string {
  const d = new Date(now);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

export function failuresToday(db: Db, ip: string, now: number): number {
  const row = db.prepare('SELECT count FROM login_failures WHERE ip = ? AND day = ?').get(ip, dayOf(now)) as
    | { count: number }
    | undefined;
  return row?.count ?? 0;
}

export function addFailure(db: Db, ip: string, now: number): number {
  const day = dayOf(now);
  db.prepare(
    'INSERT INTO login_failures (ip, day, count) VALUES (?, ?, 1) ON CONFLICT(ip, day) DO UPDATE SET count = count + 1',
  ).run(ip, day);
  db.prepare('DELETE FROM login_failures WHERE day < ?').run(day);
  return failuresToday(db, ip, now);
}

export function clearFailures(db: Db, ip: string, now: number): void {
  db.prepare('DELETE FROM login_failures WHERE ip = ? AND day = ?').run(ip, dayOf(now));
}
