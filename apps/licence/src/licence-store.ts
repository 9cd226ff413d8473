import type { SQLOutputValue } from 'node:sqlite';
import type { LicenceDb } from './db.ts';

/** One row of the licences table. */
export interface LicenceRecord {
  code: string;
  product_id: string;
  created_at: number;
  expires_at: number;
  transfers_total: number;
  transfers_left: number;
  device_id: string | null;
  activated_at: number | null;
  moved_at: number | null;
}

export type ActivationOutcome =
  | 'activated'
  | 'reactivated'
  | 'moved'
  | 'need_confirm'
  | 'unknown'
  | 'expired'
  | 'no_transfers'
  | 'bad_request';

export interface ActivationLogEntry {
  time: number;
  code: string | null;
  device_id: string | null;
  ip: string;
  outcome: ActivationOutcome;
}

type Row = Record<string, SQLOutputValue>;

function int(row: Row, key: string): number {
  const value = row[key];
  if (typeof value !== 'number' && typeof value !== 'bigint') throw new Error(`licence row: ${key} is not a number`);
  return Number(value);
}
function intOrNull(row: Row, key: string): number | null {
  return row[key] === null ? null : int(row, key);
}
function text(row: Row, key: string): string {
  const value = row[key];
  if (typeof value !== 'string') throw new Error(`licence row: ${key} is not text`);
  return value;
}
function textOrNull(row: Row, key: string): string | null {
  return row[key] === null ? null : text(row, key);
}

function toRecord(row: Row): LicenceRecord {
  return {
    code: text(row, 'code'),
    product_id: text(row, 'product_id'),
    created_at: int(row, 'created_at'),
    expires_at: int(row, 'expires_at'),
    transfers_total: int(row, 'transfers_total'),
    transfers_left: int(row, 'transfers_left'),
    device_id: textOrNull(row, 'device_id'),
    activated_at: intOrNull(row, 'activated_at'),
    moved_at: intOrNull(row, 'moved_at'),
  };
}

export function findLicence(db: LicenceDb, code: string): LicenceRecord | undefined {
  const row = db.prepare('SELECT * FROM licences WHERE code = ?').get(code);
  return row ? toRecord(row) : undefined;
}

export function listLicences(db: LicenceDb): LicenceRecord[] {
  return db.prepare('SELECT * FROM licences ORDER BY created_at, code').all().map(toRecord);
}

/** Inserts a new licence; throws SQLite's constraint error if the code is taken. */
export function insertLicence(db: LicenceDb, record: LicenceRecord): void {
  db.prepare(
    `INSERT INTO licences (code, product_id, created_at, expires_at, transfers_total, transfers_left, device_id, activated_at, moved_at)
     VALUES (:code, :product_id, :created_at, :expires_at, :transfers_total, :transfers_left, :device_id, :activated_at, :moved_at)`,
  ).run({ ...record });
}

/** First binding of an unbound code. Returns false if someone bound it first. */
export function bindLicence(db: LicenceDb, code: string, deviceId: string, now: number): boolean {
  const result = db
    .prepare('UPDATE licences SET device_id = ?, activated_at = ? WHERE code = ? AND device_id IS NULL')
    .run(deviceId, now, code);
  return Number(result.changes) === 1;
}

/**
 * Moves a code from `fromDevice` to `toDevice`, spending one relocation. The WHERE clause is a
 * compare-and-swap: it only succeeds if the binding and credit are still what the caller saw.
 */
export function moveLicence(db: LicenceDb, code: string, fromDevice: string, toDevice: string, now: number): boolean {
  const result = db
    .prepare(
      `UPDATE licences SET device_id = ?, activated_at = ?, moved_at = ?, transfers_left = transfers_left - 1
       WHERE code = ? AND device_id = ? AND transfers_left > 0`,
    )
    .run(toDevice, now, now, code, fromDevice);
  return Number(result.changes) === 1;
}

export function logActivation(db: LicenceDb, entry: ActivationLogEntry): void {
  db.prepare('INSERT INTO activation_log (time, code, device_id, ip, outcome) VALUES (?, ?, ?, ?, ?)').run(
    entry.time,
    entry.code,
    entry.device_id,
    entry.ip,
    entry.outcome,
  );
}

export function readActivationLog(db: LicenceDb): ActivationLogEntry[] {
  return db
    .prepare('SELECT time, code, device_id, ip, outcome FROM activation_log ORDER BY id')
    .all()
    .map((row) => ({
      time: int(row, 'time'),
      code: textOrNull(row, 'code'),
      device_id: textOrNull(row, 'device_id'),
      ip: text(row, 'ip'),
      outcome: text(row, 'outcome') as ActivationOutcome,
    }));
}

export function readMeta(db: LicenceDb, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key);
  return row ? text(row, 'value') : undefined;
}

export function writeMeta(db: LicenceDb, key: string, value: string): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}
