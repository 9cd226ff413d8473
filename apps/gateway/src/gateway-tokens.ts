import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * The gateway's own signed values, all HMAC-SHA256 under policy.cookie_secret and all bound to the
 * client address and the site, so one cannot be carried to another address or site:
 *
 * - the CC pass cookie a visitor earns by the human verification (`rampart_pass`);
 * - the one-use-ish ticket in the verification link or form (it proves the visitor came through
 *   the gateway's challenge, not straight to the verify URL, and carries the return URL);
 * - the authorization form's token (a form posted from elsewhere is refused).
 *
 * Each is `<expires ms>.<mac base64url>`; the MAC covers a purpose label so one kind of value can
 * never stand for another.
 */

export const passCookieName = 'rampart_pass';

/**
 * 30 minutes: long enough that a person reading a site is not asked again within a visit, short
 * enough that a pass copied into a bot's cookie jar (from the same address) soon stops working.
 */
export const passCookieMs = 30 * 60_000;
/** A verification ticket must be used soon after the challenge: two minutes covers a slow click. */
export const ticketMs = 2 * 60_000;
/** The authorization form may sit open for a while before the password is typed. */
export const formTokenMs = 30 * 60_000;

type Purpose = 'pass' | 'ticket' | 'form';

function mac(secret: Buffer, purpose: Purpose, siteId: string, ip: string, expires: number, extra: string): string {
  return createHmac('sha256', secret).update(`${purpose}\u0000${siteId}\u0000${ip}\u0000${expires}\u0000${extra}`).digest('base64url');
}

export function signToken(secret: Buffer, purpose: Purpose, siteId: string, ip: string, expires: number, extra = ''): string {
  return `${expires}.${mac(secret, purpose, siteId, ip, expires, extra)}`;
}

export function verifyToken(secret: Buffer, purpose: Purpose, siteId: string, ip: string, now: number, token: string, extra = ''): boolean {
  const dot = token.indexOf('.');
  if (dot <= 0 || dot > 15) return false;
  const expiresText = token.slice(0, dot);
  if (!/^\d+$/.test(expiresText)) return false;
  const expires = Number(expiresText);
  if (expires <= now) return false;
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = Buffer.from(mac(secret, purpose, siteId, ip, expires, extra), 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The value of one cookie in a Cookie header, or null. */
export function cookieValue(cookieHeader: string | undefined, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** Does the request carry a valid CC pass for this site and address? */
export function hasValidPass(secret: Buffer, siteId: string, ip: string, now: number, cookieHeader: string | undefined): boolean {
  const value = cookieValue(cookieHeader, passCookieName);
  return value !== null && verifyToken(secret, 'pass', siteId, ip, now, value);
}

/** The Set-Cookie header of a new pass: HttpOnly (scripts never need it), SameSite=Lax (the return is a top-level navigation). */
export function passCookie(secret: Buffer, siteId: string, ip: string, now: number, secure: boolean): string {
  const expires = now + passCookieMs;
  const value = signToken(secret, 'pass', siteId, ip, expires);
  return `${passCookieName}=${value}; Path=/; Max-Age=${passCookieMs / 1000}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
