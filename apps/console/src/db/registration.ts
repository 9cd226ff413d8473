import type { Db } from './database.ts';

export interface RegistrationRow {
  product_key: string;
  product_id: string;
  device_id: string;
  expires_at: number;
  transfers_left: number;
  registered_at: number;
  valid: 0 | 1;
}

export function getRegistration(db: Db): RegistrationRow | undefined {
  return db.prepare('SELECT * FROM registration WHERE id = 1').get() as RegistrationRow | undefined;
}

export function saveRegistration(db: Db, r: RegistrationRow): void {
  db.prepare(
    `INSERT INTO registration (id, product_key, product_id, device_id, expires_at, transfers_left, registered_at, valid)
     VALUES (1, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET product_key = excluded.product_key, product_id = excluded.product_id,
       device_id = excluded.device_id, expires_at = excluded.expires_at, transfers_left = excluded.transfers_left,
       registered_at = excluded.registered_at, valid = excluded.valid`,
  ).run(r.product_key, r.product_id, r.device_id, r.expires_at, r.transfers_left, r.registered_at, r.valid);
}

export function invalidateRegistration(db: Db): void {
  db.prepare('UPDATE registration SET valid = 0 WHERE id = 1').run();
}

/** Registered means: a licence is bound here, still valid and not expired. */
export function isRegistered(db: Db, now: number): boolean {
  const r = getRegistration(db);
  return !!r && r.valid === 1 && r.expires_at > now;
}
