import type { Db } from './database.ts';

export interface SessionRow {
  token_hash: string;
  user_id: number;
  created_at: number;
  seen_at: number;
  expires_at: number | null;
  ip: string;
  user_agent: string;
}

export function insertSession(db: Db, s: SessionRow): void {
  db.prepare(
    'INSERT INTO sessions (token_hash, user_id, created_at, seen_at, expires_at, ip, user_agent) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(s.token_hash, s.user_id, s.created_at, s.seen_at, s.expires_at, s.ip, s.user_agent);
}

export function findSession(db: Db, tokenHash: string): SessionRow | undefined {
  return db.prepare('SELECT * FROM sessions WHERE token_hash = ?').get(tokenHash) as SessionRow | undefined;
}

/** Sliding expiry: each use pushes the end out by the session timeout again. */
export function touchSession(db: Db, tokenHash: string, now: number, expiresAt: number | null): void {
  db.prepare('UPDATE sessions SET seen_at = ?, expires_at = ? WHERE token_hash = ?').run(now, expiresAt, tokenHash);
}

export function deleteSession(db: Db, tokenHash: string): void {
  db.prepare('DELETE FROM sessions WHERE token_hash = ?').run(tokenHash);
}

export function deleteUserSessions(db: Db, userId: number): void {
  db.prepare('DELETE FROM sessions WHERE user_id = ?').run(userId);
}

export function deleteExpiredSessions(db: Db, now: number): void {
  db.prepare('DELETE FROM sessions WHERE expires_at IS NOT NULL AND expires_at <= ?').run(now);
}
