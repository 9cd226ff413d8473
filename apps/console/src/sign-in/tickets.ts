import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { SignInClient } from '@rampart/contracts';

/*
 * Pending sign-ins: what a right password earns when the check mode asks for verification. A
 * ticket is good for one sign-in from the IP that earned it, for a few minutes, and for nothing
 * else (it is not a session token and no other route accepts it).
 *
 * They live in memory: they last minutes, and a console restart merely sends the user back to the
 * password. Only the SHA-256 of a ticket is kept as the map key, and codes only as an HMAC under a
 * key of the ticket's own, so a heap dump holds neither in a usable form.
 *
 * Numbers (the spec gives none): ticket 10 min (room for a resend or two after a slow SMS),
 * code 5 min, resend after 60 s, 5 wrong codes per ticket, 5 codes sent per ticket.
 */
export const ticketLifeMs = 10 * 60_000;
export const codeLifeMs = 5 * 60_000;
export const resendAfterMs = 60_000;
export const maxTries = 5;
export const maxSends = 5;
/** Bounds the memory a flood of right passwords could take; the oldest go first. */
const maxTickets = 10_000;

export interface PendingSignIn {
  userId: number;
  /** What the sign-in is for: a console session or a trust terminal token. */
  client: SignInClient;
  ip: string;
  expiresAt: number;
  tries: number;
  sends: number;
  lastSentAt: number | null;
  code: { objectId: string; digest: Buffer; expiresAt: number } | null;
  readonly key: Buffer;
}

const digestOf = (ticket: string) => createHash('sha256').update(ticket).digest('base64url');

export class PendingTickets {
  readonly #tickets = new Map<string, PendingSignIn>();

  issue(userId: number, ip: string, now: number, client: SignInClient = 'console'): { ticket: string; expiresIn: number } {
    this.#sweep(now);
    const ticket = randomBytes(32).toString('base64url');
    this.#tickets.set(digestOf(ticket), {
      userId, client, ip, expiresAt: now + ticketLifeMs, tries: 0, sends: 0, lastSentAt: null, code: null, key: randomBytes(32),
    });
    return { ticket, expiresIn: ticketLifeMs / 1000 };
  }

  /** The pending sign-in, if the ticket is known, alive and presented from the IP that earned it. */
  find(ticket: string, ip: string, now: number): PendingSignIn | undefined {
    const pending = this.#tickets.get(digestOf(ticket));
    if (!pending) return undefined;
    if (pending.expiresAt <= now) {
      this.#tickets.delete(digestOf(ticket));
      return undefined;
    }
    return pending.ip === ip ? pending : undefined;
  }

  kill(ticket: string): void {
    this.#tickets.delete(digestOf(ticket));
  }

  /** Seconds to wait before another code may go out (0 = now). */
  waitSeconds(pending: PendingSignIn, now: number): number {
    if (pending.lastSentAt === null) return 0;
    return Math.max(0, Math.ceil((pending.lastSentAt + resendAfterMs - now) / 1000));
  }

  /** A fresh random code for `objectId`; replaces any earlier one (only the newest code counts). */
  newCode(pending: PendingSignIn, objectId: string, now: number): string {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    pending.code = { objectId, digest: this.#digest(pending, objectId, code), expiresAt: now + codeLifeMs };
    pending.lastSentAt = now;
    return code;
  }

  codeMatches(pending: PendingSignIn, objectId: string, code: string): boolean {
    if (!pending.code || pending.code.objectId !== objectId) return false;
    return timingSafeEqual(pending.code.digest, this.#digest(pending, objectId, code));
  }

  get size(): number {
    return this.#tickets.size;
  }

  #digest(pending: PendingSignIn, objectId: string, code: string): Buffer {
    return createHmac('sha256', pending.key).update(`${objectId}\n${code}`).digest();
  }

  #sweep(now: number): void {
    for (const [key, pending] of this.#tickets) if (pending.expiresAt <= now) this.#tickets.delete(key);
    // Map order is insertion order: the first entries are the oldest.
    for (const key of this.#tickets.keys()) {
      if (this.#tickets.size < maxTickets) break;
      this.#tickets.delete(key);
    }
  }
}
