import { createHash } from 'node:crypto';
import type { RoleId } from '@rampart/contracts';
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

/**
 * The id a session is shown and signed out by. Choice: derived from the stored token hash (a
 * SHA-256 of it, cut to 64 bits) rather than a new column, so no migration is needed and the list
 * never carries the token hash itself; from the id nobody can get back to the hash or the token.
 */
export function sessionPublicId(tokenHash: string): string {
  return createHash('sha256').update(`session-id:${tokenHash}`).digest('hex').slice(0, 16);
}

export interface LiveSession extends SessionRow {
  username: string;
  role: RoleId;
}

/** Sessions that have not expired at `now`, newest first, with their account. */
export function listLiveSessions(db: Db, now: number): LiveSession[] {
  return db
    .prepare(
      `SELECT s.*, u.username, u.role FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.expires_at IS NULL OR s.expires_at > ? ORDER BY s.created_at DESC, s.rowid DESC`,
    )
    .all(now) as unknown as LiveSession[];
}

/**
 * How long after its last request a session without an open websocket still counts as online. The
 * web app keeps the console's websocket open while it runs, so a closed browser leaves the online
 * list within this time even where sessions never expire (session timeout 0); a script that only
 * makes requests stays while it keeps making them. Request times are written at most once a minute.
 */
export const onlineIdleMs = 5 * 60_000;

/** Whether a live session is online at `now`: its websocket is open (`connected` token hashes) or it was used lately. */
export function isOnlineSession(session: Pick<SessionRow, 'token_hash' | 'seen_at'>, now: number, connected: ReadonlySet<string>): boolean {
  return connected.has(session.token_hash) || now - session.seen_at <= onlineIdleMs;
}

/** Live sessions that are online (see isOnlineSession), newest first, with their account. */
export function listOnlineSessions(db: Db, now: number, connected: ReadonlySet<string>): LiveSession[] {
  return listLiveSessions(db, now).filter((session) => isOnlineSession(session, now, connected));
}

/** Accounts with at least one online session (the "online" flag). */
export function onlineUserIds(db: Db, now: number, connected: ReadonlySet<string>): Set<number> {
  return new Set(listOnlineSessions(db, now, connected).map((session) => session.user_id));
}

/** The live session shown as `publicId`, if it is still there. */
export function findLiveSessionByPublicId(db: Db, publicId: string, now: number): LiveSession | undefined {
  return listLiveSessions(db, now).find((s) => sessionPublicId(s.token_hash) === publicId);
}
