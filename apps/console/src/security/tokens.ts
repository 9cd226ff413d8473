import { createHash, randomBytes } from 'node:crypto';

/** Opaque session tokens: 32 random bytes, base64url (valid as a websocket subprotocol too). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this digest is stored, so a copy of the database does not hand out sessions. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export const tokenPattern = /^[A-Za-z0-9_-]{43}$/;
