import type { Db } from '../db/database.ts';
import { getSetting } from '../db/settings.ts';
import { verifiedToday } from './verified-today.ts';

/** Whether this sign-in needs the second step, by the login check mode. */
export function needsVerification(db: Db, userId: number, ip: string, now: number): boolean {
  const mode = getSetting(db, 'login_check_mode');
  if (mode === 'off') return false;
  if (mode === 'loose') return !verifiedToday(db, userId, ip, now);
  return true;
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (how a dual-stack listener reports 127.0.0.1). */
export function isLoopback(ip: string): boolean {
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return ip === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}
