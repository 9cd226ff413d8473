import { randomBytes, scryptSync } from 'node:crypto';

/**
 * The authorization password's stored form, exactly as @rampart/waf policy/authorization.ts writes
 * and verifies it (`scrypt$<N>$<salt b64>$<hash b64>`): the gateway checks the visitor's answer
 * against what the console stored. Kept here because the console does not depend on the engine
 * package; tests/website-settings.test.ts proves the engine accepts it.
 */
const cost = 16_384;
export function hashAuthorizationPassword(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password.normalize('NFC'), salt, 32, { N: cost, r: 8, p: 1 });
  return `scrypt$${cost}$${salt.toString('base64')}$${hash.toString('base64')}`;
}
