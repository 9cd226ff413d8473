import { hash, verify } from '@node-rs/argon2';
import { randomInt } from 'node:crypto';

// argon2id with OWASP's second recommended profile (19 MiB, t=2, p=1).
// algorithm 2 is Argon2id (the package exports it as an ambient const enum, which type stripping cannot read).
const options = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash of a random value, so a sign-in for an unknown account costs the same as a wrong password. */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(generatePassword());
  return decoyHash;
}

const letters = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';
const digits = '23456789';

/** 16 characters of letters and digits, always both (so it passes the password rule). */
export function generatePassword(length = 16): string {
  const all = letters + digits;
  const chars = [letters[randomInt(letters.length)]!, digits[randomInt(digits.length)]!];
  while (chars.length < length) chars.push(all[randomInt(all.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
