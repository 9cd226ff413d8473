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
  user: { username: string; passwordHash: string; role: RoleId; remark?: string; status?: 0 | 1; now: number },
): number {
  const result = db
    .prepare('INSERT INTO users (username, password_hash, role, remark, status, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(user.username, user.passwordHash, user.role, user.remark ?? '', user.status ?? 1, user.now);
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

/** Every account, oldest first (the accounts tab lists them all: a panel has a handful). */
export function listUsers(db: Db): UserRow[] {
  return db.prepare('SELECT * FROM users ORDER BY id').all() as unknown as UserRow[];
}

export interface UserChange {
  username?: string;
  passwordHash?: string;
  role?: RoleId;
  status?: 0 | 1;
  remark?: string;
}

const changeColumns = { username: 'username', passwordHash: 'password_hash', role: 'role', status: 'status', remark: 'remark' } as const;

/** Writes the fields present in `change`; the others stay as they are. */
export function updateUser(db: Db, id: number, change: UserChange): void {
  const sets: string[] = [];
  const values: (string | number)[] = [];
  for (const [key, column] of Object.entries(changeColumns) as [keyof UserChange, string][]) {
    const value = change[key];
    if (value === undefined) continue;
    sets.push(`${column} = ?`);
    values.push(value);
  }
  if (sets.length === 0) return;
  db.prepare(`UPDATE users SET ${sets.join(', ')} WHERE id = ?`).run(...values, id);
}

/** Removes the account; its sessions go with it (ON DELETE CASCADE). */
export function deleteUser(db: Db, id: number): void {
  db.prepare('DELETE FROM users WHERE id = ?').run(id);
}

/** Enabled administrators: the panel must always keep one. */
export function countEnabledAdmins(db: Db): number {
  return (db.prepare("SELECT COUNT(*) AS n FROM users WHERE role = 'admin' AND status = 1").get() as { n: number }).n;
}
