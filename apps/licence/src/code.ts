import { randomBytes, randomInt } from 'node:crypto';
import { licenceCodeAlphabet } from '@rampart/contracts';

/** A fresh AAA-BBB code from the unambiguous alphabet, drawn with a CSPRNG. */
export function drawLicenceCode(): string {
  const pick = (): string => licenceCodeAlphabet[randomInt(licenceCodeAlphabet.length)] ?? '';
  const half = (): string => pick() + pick() + pick();
  return `${half()}-${half()}`;
}

/** A random product identifier shown to the customer, e.g. RP-3F9A0C2B7D1E. */
export function drawProductId(): string {
  return 'RP-' + randomBytes(6).toString('hex').toUpperCase();
}
