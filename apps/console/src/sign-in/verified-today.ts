import { localDay } from '@rampart/contracts';
import type { Db } from '../db/database.ts';

/*
 * Loose login check ("verify an IP once per day"): once an account verified from an IP, that
 * (account, IP) pair signs in without a code for the rest of the local calendar day — the same day
 * the login-failure lock-out counts on.
 */

export function verifiedToday(db: Db, userId: number, ip: string, now: number): boolean {
  return db.prepare('SELECT 1 FROM sign_in_verified WHERE user_id = ? AND ip = ? AND day = ?').get(userId, ip, localDay(now)) !== undefined;
}

export function markVerified(db: Db, userId: number, ip: string, now: number): void {
  const day = localDay(now);
  db.prepare('INSERT OR IGNORE INTO sign_in_verified (user_id, ip, day) VALUES (?, ?, ?)').run(userId, ip, day);
  db.prepare('DELETE FROM sign_in_verified WHERE day < ?').run(day);
}
