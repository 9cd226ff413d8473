import type { RoleId } from '@rampart/contracts';
import type { Db } from './database.ts';

export interface TerminalRecord {
  id: number;
  token_hash: string;
  user_id: number;
  ip: string;
  user_agent: string;
  proxied: 0 | 1;
  started_at: number;
  last_beat: number;
  trusted_until: number | null;
  covered: 0 | 1;
  keep_until: number | null;
  lapsed_at: number | null;
}

export interface TerminalWithAccount extends TerminalRecord {
  username: string;
  role: RoleId;
  status: 0 | 1;
}

const withAccount = 'SELECT t.*, u.username, u.role, u.status FROM trust_terminals t JOIN users u ON u.id = t.user_id';

export function insertTerminal(db: Db, row: Pick<TerminalRecord, 'token_hash' | 'user_id' | 'ip' | 'user_agent' | 'started_at'>): number {
  const result = db
    .prepare('INSERT INTO trust_terminals (token_hash, user_id, ip, user_agent, started_at, last_beat) VALUES (?, ?, ?, ?, ?, ?)')
    .run(row.token_hash, row.user_id, row.ip, row.user_agent, row.started_at, row.started_at);
  return Number(result.lastInsertRowid);
}

export function findTerminalByToken(db: Db, tokenHash: string): TerminalWithAccount | undefined {
  return db.prepare(`${withAccount} WHERE t.token_hash = ?`).get(tokenHash) as TerminalWithAccount | undefined;
}

export function findTerminal(db: Db, id: number): TerminalWithAccount | undefined {
  return db.prepare(`${withAccount} WHERE t.id = ?`).get(id) as TerminalWithAccount | undefined;
}

/** Every terminal, newest first. */
export function listTerminals(db: Db): TerminalWithAccount[] {
  return db.prepare(`${withAccount} ORDER BY t.started_at DESC, t.id DESC`).all() as unknown as TerminalWithAccount[];
}

export function updateTerminal(
  db: Db,
  id: number,
  fields: Partial<Pick<TerminalRecord, 'ip' | 'proxied' | 'last_beat' | 'trusted_until' | 'covered' | 'keep_until' | 'lapsed_at'>>,
): void {
  const names = Object.keys(fields) as (keyof typeof fields)[];
  if (names.length === 0) return;
  // Column names come from the typed key list above, never from input.
  db.prepare(`UPDATE trust_terminals SET ${names.map((n) => `${n} = ?`).join(', ')} WHERE id = ?`).run(...names.map((n) => fields[n] ?? null), id);
}

export function deleteTerminal(db: Db, id: number): void {
  db.prepare('DELETE FROM trust_terminals WHERE id = ?').run(id);
}
