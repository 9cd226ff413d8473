import type { Db } from '@rampart/sqlite';
import type { AddressList, PlannedListEntry } from '@rampart/firewall';
import type { ListEntry, SuperWhitelistEntry, TrustSource } from '@rampart/contracts';
import { canonicalEntry } from './canonical-address.ts';
import { likePattern } from './rules-repo.ts';

type Row = Record<string, unknown>;

function toEntry(row: Row): SuperWhitelistEntry {
  const expires = row['expires_at'];
  return {
    id: Number(row['id']),
    address: String(row['address']),
    remark: String(row['remark']),
    added_by: String(row['added_by']),
    source: (row['source'] ?? 'manual') as TrustSource,
    created_at: Number(row['created_at']),
    expires_at: expires === null || expires === undefined ? null : Number(expires),
  };
}

export interface StoredAddress {
  address: string;
  isHost: boolean;
  expires_at: number | null;
}

export type StoredEntry = SuperWhitelistEntry & { isHost: boolean };

function toStored(row: Row): StoredEntry {
  return { ...toEntry(row), isHost: Number(row['is_host']) === 1 };
}

/** The super whitelist, the whitelist and the blacklist. */
export class ListsRepo {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  /** Adds entries (one spelling each); returns those that were not listed yet. */
  add(
    list: AddressList,
    addresses: readonly string[],
    fields: { remark: string; addedBy: string; expiresAt: number | null; now: number; source?: TrustSource },
  ): StoredAddress[] {
    const insert = this.#db.prepare(
      'INSERT INTO list_entries (list, address, is_host, remark, added_by, created_at, expires_at, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (list, address) DO NOTHING',
    );
    const added: StoredAddress[] = [];
    for (const text of addresses) {
      const canonical = canonicalEntry(text);
      if (!canonical) continue;
      const result = insert.run(list, canonical.address, canonical.isHost ? 1 : 0, fields.remark, fields.addedBy, fields.now, fields.expiresAt, fields.source ?? 'manual');
      if (Number(result.changes) > 0) added.push({ address: canonical.address, isHost: canonical.isHost, expires_at: fields.expiresAt });
    }
    return added;
  }

  /** Deletes by id; returns the rows removed, whole, so an undo can put them back. */
  delete(list: AddressList, ids: readonly number[]): StoredEntry[] {
    const select = this.#db.prepare('SELECT * FROM list_entries WHERE list = ? AND id = ?');
    const remove = this.#db.prepare('DELETE FROM list_entries WHERE list = ? AND id = ?');
    const removed: StoredEntry[] = [];
    for (const id of ids) {
      const row = select.get(list, id);
      if (!row) continue;
      remove.run(list, id);
      removed.push(toStored(row));
    }
    return removed;
  }

  /** Every row of a list, whole (the snapshot before "delete all"). */
  entries(list: AddressList): StoredEntry[] {
    return this.#db.prepare('SELECT * FROM list_entries WHERE list = ? ORDER BY id').all(list).map(toStored);
  }

  /** Puts removed rows back exactly as they were: id, remark, who added them and when (a rolled-back change). */
  restore(list: AddressList, rows: readonly StoredEntry[]): void {
    const insert = this.#db.prepare(
      'INSERT INTO list_entries (id, list, address, is_host, remark, added_by, created_at, expires_at, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    );
    for (const r of rows) insert.run(r.id, list, r.address, r.isHost ? 1 : 0, r.remark, r.added_by, r.created_at, r.expires_at, r.source);
  }

  /** Rows by id, whole (a renewal reads them before it extends them). */
  byIds(list: AddressList, ids: readonly number[]): StoredEntry[] {
    const select = this.#db.prepare('SELECT * FROM list_entries WHERE list = ? AND id = ?');
    return ids.flatMap((id) => {
      const row = select.get(list, id);
      return row ? [toStored(row)] : [];
    });
  }

  /** The row of one address (in any spelling), whole. */
  byAddress(list: AddressList, address: string): StoredEntry | undefined {
    const canonical = canonicalEntry(address);
    if (!canonical) return undefined;
    const row = this.#db.prepare('SELECT * FROM list_entries WHERE list = ? AND address = ?').get(list, canonical.address);
    return row ? toStored(row) : undefined;
  }

  setExpiry(list: AddressList, id: number, expiresAt: number | null): void {
    this.#db.prepare('UPDATE list_entries SET expires_at = ? WHERE list = ? AND id = ?').run(expiresAt, list, id);
  }

  deleteAll(list: AddressList): number {
    return Number(this.#db.prepare('DELETE FROM list_entries WHERE list = ?').run(list).changes);
  }

  /** Removes these exact entries (undoing an add). */
  deleteAddresses(list: AddressList, addresses: readonly string[]): void {
    const remove = this.#db.prepare('DELETE FROM list_entries WHERE list = ? AND address = ?');
    for (const address of addresses) remove.run(list, address);
  }

  page(list: AddressList, keyword: string | undefined, offset: number, limit: number): { total: number; list: SuperWhitelistEntry[] } {
    const where = keyword ? `list = ? AND (address LIKE ? ESCAPE '\\' OR remark LIKE ? ESCAPE '\\')` : 'list = ?';
    const args = keyword ? [list, likePattern(keyword), likePattern(keyword)] : [list];
    const total = Number(this.#db.prepare(`SELECT count(*) AS n FROM list_entries WHERE ${where}`).get(...args)?.['n'] ?? 0);
    const rows = this.#db.prepare(`SELECT * FROM list_entries WHERE ${where} ORDER BY id DESC LIMIT ? OFFSET ?`).all(...args, limit, offset);
    return { total, list: rows.map(toEntry) };
  }

  /** Every live entry, for the full ruleset. */
  planned(list: AddressList, now: number): PlannedListEntry[] {
    const rows = this.#db.prepare('SELECT address, expires_at FROM list_entries WHERE list = ? AND (expires_at IS NULL OR expires_at > ?)').all(list, now);
    return rows.map((row) => ({ address: String(row['address']), expires_at: row['expires_at'] === null ? null : Number(row['expires_at']) }));
  }

  /** The live entries that could cover one of `ips`: their own host entries and every network (few). */
  covering(list: AddressList, ips: readonly string[], now: number): PlannedListEntry[] {
    const hosts = ips.flatMap((ip) => {
      const canonical = canonicalEntry(ip);
      return canonical?.isHost ? [canonical.address] : [];
    });
    const marks = hosts.map(() => '?').join(', ');
    const rows = this.#db
      .prepare(`SELECT address, expires_at FROM list_entries WHERE list = ? AND (is_host = 0${hosts.length > 0 ? ` OR address IN (${marks})` : ''}) AND (expires_at IS NULL OR expires_at > ?)`)
      .all(list, ...hosts, now);
    return rows.map((row) => ({ address: String(row['address']), expires_at: row['expires_at'] === null ? null : Number(row['expires_at']) }));
  }

  /** Live network and range entries (few), for re-merging the interval set. */
  nets(list: AddressList, now: number): string[] {
    return this.#db
      .prepare('SELECT address FROM list_entries WHERE list = ? AND is_host = 0 AND (expires_at IS NULL OR expires_at > ?)')
      .all(list, now)
      .map((row) => String(row['address']));
  }

  /** Entries whose time is up: removed here; the kernel drops hosts by itself, nets need a re-merge. */
  purgeExpired(now: number): Array<{ list: AddressList; isHost: boolean }> {
    const rows = this.#db.prepare('SELECT list, is_host FROM list_entries WHERE expires_at IS NOT NULL AND expires_at <= ?').all(now);
    if (rows.length > 0) this.#db.prepare('DELETE FROM list_entries WHERE expires_at IS NOT NULL AND expires_at <= ?').run(now);
    return rows.map((row) => ({ list: row['list'] as AddressList, isHost: Number(row['is_host']) === 1 }));
  }

  count(list: AddressList): number {
    return Number(this.#db.prepare('SELECT count(*) AS n FROM list_entries WHERE list = ?').get(list)?.['n'] ?? 0);
  }
}

export type { ListEntry };
