import { maxShortcuts, shortcutLinkPrefix, shortcutTokenPattern, type ShortcutInput, type ShortcutStatus, type ShortcutView } from '@rampart/contracts';
import type { Db } from '../db/database.ts';
import { getSetting, setSetting } from '../db/settings.ts';
import type { StoredShortcut } from '../db/settings-shortcuts.ts';
import { hashToken, newToken } from '../security/tokens.ts';

/* The shortcuts and their link tokens. node:sqlite is synchronous, so each read-change-write below runs whole. */

export function listShortcuts(db: Db): StoredShortcut[] {
  return getSetting(db, 'shortcuts');
}

function save(db: Db, list: StoredShortcut[]): void {
  setSetting(db, 'shortcuts', list);
}

export function statusOf(s: StoredShortcut, now: number): ShortcutStatus {
  if (!s.enabled) return 'disabled';
  if (s.expires_at !== null && s.expires_at <= now) return 'expired';
  if (s.max_uses > 0 && s.uses >= s.max_uses) return 'used_up';
  return 'active';
}

/** What the browser sees: everything but the token's hash. */
export function viewOf(s: StoredShortcut, now: number): ShortcutView {
  const { token_hash: _hidden, ...rest } = s;
  return { ...rest, status: statusOf(s, now) };
}

export const linkPath = (token: string) => `${shortcutLinkPrefix}${token}`;

export type SaveOutcome =
  | { ok: true; shortcut: StoredShortcut; token: string | null }
  | { ok: false; msg: 'sc_not_found' | 'sc_name_taken' | 'sc_too_many' | 'sc_expiry_past' };

/** Adds (a new token, returned once) or edits (the link stays as it was). */
export function saveShortcut(db: Db, input: ShortcutInput, account: string, now: number): SaveOutcome {
  const list = listShortcuts(db);
  const existing = input.id === undefined ? undefined : list.find((s) => s.id === input.id);
  if (input.id !== undefined && !existing) return { ok: false, msg: 'sc_not_found' };
  if (list.some((s) => s.id !== input.id && s.name.toLowerCase() === input.name.toLowerCase())) return { ok: false, msg: 'sc_name_taken' };
  // An edit may keep an end that has passed (the link stays dead); a new or changed end must lie ahead.
  if (input.expires_at !== null && input.expires_at <= now && input.expires_at !== existing?.expires_at) return { ok: false, msg: 'sc_expiry_past' };
  const fields = { name: input.name, action: input.action, enabled: input.enabled, expires_at: input.expires_at, max_uses: input.max_uses };
  if (existing) {
    const changed: StoredShortcut = { ...existing, ...fields };
    save(db, list.map((s) => (s.id === existing.id ? changed : s)));
    return { ok: true, shortcut: changed, token: null };
  }
  if (list.length >= maxShortcuts) return { ok: false, msg: 'sc_too_many' };
  const id = getSetting(db, 'shortcut_last_id') + 1;
  const token = newToken();
  const added: StoredShortcut = {
    id, ...fields, uses: 0, last_used_at: null, last_used_ip: '', created_at: now, created_by: account, token_hash: hashToken(token),
  };
  setSetting(db, 'shortcut_last_id', id);
  save(db, [...list, added]);
  return { ok: true, shortcut: added, token };
}

/** A new token for a shortcut (drawn here unless given); the old link stops working at once. */
export function reissueShortcut(db: Db, id: number, token = newToken()): { shortcut: StoredShortcut; token: string } | null {
  const list = listShortcuts(db);
  const found = list.find((s) => s.id === id);
  if (!found) return null;
  const changed = { ...found, token_hash: hashToken(token) };
  save(db, list.map((s) => (s.id === id ? changed : s)));
  return { shortcut: changed, token };
}

export function deleteShortcuts(db: Db, ids: readonly number[]): number {
  const list = listShortcuts(db);
  const kept = list.filter((s) => !ids.includes(s.id));
  save(db, kept);
  return list.length - kept.length;
}

/** The shortcut a link token opens, only while it is active; anything else is "no such link". */
export function activeByToken(db: Db, token: string, now: number): StoredShortcut | null {
  if (!shortcutTokenPattern.test(token)) return null;
  const hash = hashToken(token);
  const found = listShortcuts(db).find((s) => s.token_hash === hash);
  return found && statusOf(found, now) === 'active' ? found : null;
}

/**
 * Counts a run before it happens, so a one-use link cannot run twice from two quick presses.
 * Returns the shortcut as it was, or null when it is no longer active.
 */
export function claimRun(db: Db, token: string, ip: string, now: number): StoredShortcut | null {
  const found = activeByToken(db, token, now);
  if (!found) return null;
  const list = listShortcuts(db);
  save(db, list.map((s) => (s.id === found.id ? { ...s, uses: s.uses + 1, last_used_at: now, last_used_ip: ip.slice(0, 64) } : s)));
  return found;
}

/** Gives back the use a run claimed when the operation itself failed (the agent was away). */
export function releaseRun(db: Db, id: number): void {
  save(db, listShortcuts(db).map((s) => (s.id === id && s.uses > 0 ? { ...s, uses: s.uses - 1 } : s)));
}
