import type { Db } from '../db/database.ts';
// One sealing scheme and key file for the console's reusable secrets (shared with the alerts tab).
import { secretBox } from '../security/secret-box.ts';

/**
 * An account's authenticator enrolment with its secret opened (never leaves the console after
 * enrolment). The secret is stored sealed (AES-256-GCM, key file beside the database).
 */
export interface TotpEnrolmentRow {
  userId: number;
  secret: string;
  active: boolean;
  lastStep: number;
}

interface Stored {
  user_id: number;
  secret: string;
  active: 0 | 1;
  last_step: number;
}

export function findTotp(db: Db, userId: number): TotpEnrolmentRow | undefined {
  const row = db.prepare('SELECT user_id, secret, active, last_step FROM totp_enrolments WHERE user_id = ?').get(userId) as Stored | undefined;
  if (!row) return undefined;
  const secret = secretBox(db).open(row.secret);
  // A seal the key no longer opens (key file lost) is no enrolment: the account falls back to codes.
  if (secret === '') return undefined;
  return { userId: row.user_id, secret, active: row.active === 1, lastStep: row.last_step };
}

export function hasActiveTotp(db: Db, userId: number): boolean {
  return findTotp(db, userId)?.active === true;
}

/** Starts (or restarts) an enrolment: inactive until confirmed. */
export function startTotp(db: Db, userId: number, secret: string, now: number): void {
  db.prepare(
    `INSERT INTO totp_enrolments (user_id, secret, active, last_step, created_at) VALUES (?, ?, 0, 0, ?)
     ON CONFLICT(user_id) DO UPDATE SET secret = excluded.secret, active = 0, last_step = 0, created_at = excluded.created_at`,
  ).run(userId, secretBox(db).seal(secret), now);
}

/**
 * Records the step just accepted, only if it is newer than the stored one: two requests racing with
 * the same code cannot both win (the second updates no row).
 */
export function useTotpStep(db: Db, userId: number, step: number, activate = false): boolean {
  const result = db
    .prepare(`UPDATE totp_enrolments SET last_step = ?, active = CASE WHEN ? THEN 1 ELSE active END WHERE user_id = ? AND last_step < ?`)
    .run(step, activate ? 1 : 0, userId, step);
  return Number(result.changes) === 1;
}

export function deleteTotp(db: Db, userId: number): void {
  db.prepare('DELETE FROM totp_enrolments WHERE user_id = ?').run(userId);
}
