import type { Language, RoleId } from '@rampart/contracts';
import type { Db } from './database.ts';

export interface UserRow {
  id: number;
  username: string;
  password_hash: string;
  role: RoleId;
  status: 0 | 1;
  remark: string;
  lang: Language;
  created_at: number;
  last_login_at: number | null;
  last_login_ip: string | null;
}

export function findUserByName(db: Db, username: string): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE username = ?').get(username) as UserRow | undefined;
}

export function findUserById(db: Db, id: number): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
}

export function createUser(
  db: Db,
  user: { username: string; passwordHash: string; role: RoleId; remark?: string; now: number },
): number {
  const result = db
    .prepare('INSERT INTO users (username, password_hash, role, remark, created_at) VALUES (?, ?, ?, ?, ?)')
    .run(user.username, user.passwordHash, user.role, user.remark ?? '', user.now);
  return Number(result.lastInsertRowid);
}

export function setPasswordHash(db: Db, id: number, passwordHash: string): void {
  db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(passwordHash, id);
}

export function setUserLanguage(db: Db, id: number, lang: Language): void {
  db.prepare('UPDATE users SET lang = ? WHERE id = ?').run(lang, id);
}

export function recordLogin(db: Db, id: number, ip: string, now: number): void {
  db.prepare('UPDATE users SET last_login_at = ?, last_login_ip = ? WHERE id = ?').run(now, ip, id);
}

/** The first administrator account, the one registration creates. */
export function findFirstAdmin(db: Db): UserRow | undefined {
  return db.prepare("SELECT * FROM users WHERE role = 'admin' ORDER BY id LIMIT 1").get() as UserRow | undefined;
}
