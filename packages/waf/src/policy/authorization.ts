import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type { WebsiteAuthorEntry } from '@rampart/contracts';

/*
 * The authorization password (protect tab): stored only as a scrypt hash,
 * `scrypt$<N>$<salt b64>$<hash b64>`; a right answer puts the address on the authorization list
 * for the validity minutes. Case-sensitive: compared byte for byte.
 */

const cost = 16_384;

export function hashAuthorizationPassword(password: string, salt: Buffer = randomBytes(16)): string {
  const hash = scryptSync(password.normalize('NFC'), salt, 32, { N: cost, r: 8, p: 1 });
  return `scrypt$${cost}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export function verifyAuthorizationPassword(stored: string, password: string): boolean {
  const parts = stored.split('$');
  if (parts.length !== 4 || parts[0] !== 'scrypt' || !/^\d{4,7}$/.test(parts[1]!)) return false;
  const N = Number(parts[1]);
  if ((N & (N - 1)) !== 0 || N > 1 << 20) return false;
  const expected = Buffer.from(parts[3]!, 'base64');
  if (expected.length !== 32) return false;
  const actual = scryptSync(password.normalize('NFC'), Buffer.from(parts[2]!, 'base64'), 32, { N, r: 8, p: 1, maxmem: 256 * N * 8 });
  return timingSafeEqual(actual, expected);
}

/** The authorization-list entry a right password earns. */
export function authorizationEntry(ip: string, now: number, validityMinutes: number): WebsiteAuthorEntry {
  return { ip, reason: 'password', created_at: now, detail: '', expires_at: now + validityMinutes * 60_000 };
}
