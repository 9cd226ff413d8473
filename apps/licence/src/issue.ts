import { withTransaction, type LicenceDb } from './db.ts';
import { drawLicenceCode, drawProductId } from './code.ts';
import { findLicence, insertLicence, readMeta, writeMeta } from './licence-store.ts';

const dayMs = 86_400_000;
/** Upper bounds that keep expiry far inside safe integers and catch typos such as --days 3650000. */
export const maxLicenceDays = 36_500;
export const maxLicenceTransfers = 10_000;
/** A 6-character code space holds ~10⁹ codes; this many collisions in a row means something is wrong. */
const maxCodeDraws = 50;

export interface IssueLicenceOptions {
  /** Validity in whole days from `now`; 0 issues a code that is already expired. */
  days: number;
  /** How many times the code may move to another device. */
  transfers: number;
  now?: number;
  /** Where codes come from; tests replace it to force a collision. */
  drawCode?: () => string;
}

export interface IssuedLicence {
  code: string;
  product_id: string;
  expires_at: number;
}

function requireCount(name: string, value: number, max: number): void {
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new RangeError(`${name} must be a whole number from 0 to ${max}, got ${String(value)}`);
  }
}

function isUniqueViolation(err: unknown): boolean {
  return err instanceof Error && /UNIQUE constraint failed/.test(err.message);
}

/** Issues a new licence code; the code is unbound until its first activation. */
export function issueLicence(db: LicenceDb, options: IssueLicenceOptions): IssuedLicence {
  requireCount('days', options.days, maxLicenceDays);
  requireCount('transfers', options.transfers, maxLicenceTransfers);
  const now = options.now ?? Date.now();
  const drawCode = options.drawCode ?? drawLicenceCode;
  const expires_at = now + options.days * dayMs;

  for (let attempt = 0; attempt < maxCodeDraws; attempt++) {
    const code = drawCode().toUpperCase();
    const product_id = drawProductId();
    try {
      insertLicence(db, {
        code,
        product_id,
        created_at: now,
        expires_at,
        transfers_total: options.transfers,
        transfers_left: options.transfers,
        device_id: null,
        activated_at: null,
        moved_at: null,
      });
      return { code, product_id, expires_at };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
  throw new Error(`could not find a free licence code after ${maxCodeDraws} draws`);
}

export interface TrialLicenceOptions {
  days?: number;
  transfers?: number;
  now?: number;
}

const trialCodeKey = 'trial_code';

/** Issues the local trial code on first call and returns that same code on every later call. */
export function ensureTrialLicence(db: LicenceDb, options: TrialLicenceOptions = {}): { code: string; created: boolean } {
  // One transaction, so two processes starting together still agree on a single trial code.
  return withTransaction(db, () => {
    const existing = readMeta(db, trialCodeKey);
    if (existing !== undefined && findLicence(db, existing)) return { code: existing, created: false };
    const { code } = issueLicence(db, { days: options.days ?? 30, transfers: options.transfers ?? 1, now: options.now });
    writeMeta(db, trialCodeKey, code);
    return { code, created: true };
  });
}
