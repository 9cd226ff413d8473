import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/*
 * TOTP as RFC 6238 / RFC 4226 with the parameters every authenticator app assumes: HMAC-SHA-1,
 * 30-second steps from the Unix epoch, 6 digits. node:crypto has all it needs; no package.
 */

export const totpStepSeconds = 30;
export const totpDigits = 6;
/** Steps accepted either side of now: phones drift, and a code typed at :29 arrives at :31. */
export const totpWindow = 1;

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding, as otpauth:// URIs carry it. */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, '');
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const index = alphabet.indexOf(ch);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret: 20 random bytes (160 bits, the RFC 4226 recommendation), base32. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** RFC 4226 HOTP value of one counter. */
export function hotp(secret: Buffer, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac('sha1', secret).update(message).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** totpDigits).padStart(totpDigits, '0');
}

export function totpStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / totpStepSeconds);
}

/** The code an authenticator shows at `nowMs` (tests and the e2e compute codes with it). */
export function totpCode(secretBase32: string, nowMs: number): string {
  return hotp(base32Decode(secretBase32), totpStep(nowMs));
}

/**
 * The step `code` matches within ±totpWindow of now, or null. Steps at or before `lastStep` are
 * refused: a code once accepted (or an older one) never opens a second sign-in.
 */
export function matchTotp(secretBase32: string, code: string, nowMs: number, lastStep: number): number | null {
  const secret = base32Decode(secretBase32);
  const now = totpStep(nowMs);
  const given = Buffer.from(code.padEnd(totpDigits, ' ').slice(0, totpDigits));
  for (let step = now - totpWindow; step <= now + totpWindow; step++) {
    if (step <= lastStep) continue;
    if (timingSafeEqual(Buffer.from(hotp(secret, step)), given)) return step;
  }
  return null;
}

/** The otpauth:// URI authenticator apps scan (Key Uri Format). */
export function otpauthUri(issuer: string, account: string, secretBase32: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  const params = new URLSearchParams({
    secret: secretBase32, issuer, algorithm: 'SHA1', digits: String(totpDigits), period: String(totpStepSeconds),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}
