import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchTotp, totpCode, totpStep } from '../src/sign-in/totp.ts';

// RFC 6238 appendix B (SHA-1 key "12345678901234567890"): the 8-digit values end in these 6 digits.
const rfcSecret = base32Encode(Buffer.from('12345678901234567890'));
const vectors: [number, string][] = [
  [59, '287082'], [1111111109, '081804'], [1111111111, '050471'], [1234567890, '005924'], [2000000000, '279037'], [20000000000, '353130'],
];

describe('TOTP (RFC 6238, SHA-1, 30 s, 6 digits)', () => {
  it('matches the RFC test vectors', () => {
    for (const [seconds, code] of vectors) expect(totpCode(rfcSecret, seconds * 1000), String(seconds)).toBe(code);
  });

  it('matches the RFC 4226 HOTP vectors', () => {
    const key = Buffer.from('12345678901234567890');
    expect([0, 1, 2, 3, 9].map((c) => hotp(key, c))).toEqual(['755224', '287082', '359152', '969429', '520489']);
  });

  it('round-trips base32 and reads it loosely (lower case, spaces, padding)', () => {
    expect(rfcSecret).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode('gezd gnbv gy3t qojq gezd gnbv gy3t qojq====').toString()).toBe('12345678901234567890');
    expect(() => base32Decode('not base32!')).toThrow();
  });

  it('accepts ±1 step, refuses two away and any step at or before the last one used', () => {
    const now = 1111111111_000;
    const step = totpStep(now);
    expect(matchTotp(rfcSecret, totpCode(rfcSecret, now - 30_000), now, 0)).toBe(step - 1);
    expect(matchTotp(rfcSecret, totpCode(rfcSecret, now + 30_000), now, 0)).toBe(step + 1);
    expect(matchTotp(rfcSecret, totpCode(rfcSecret, now - 60_000), now, 0)).toBeNull();
    expect(matchTotp(rfcSecret, totpCode(rfcSecret, now), now, step)).toBeNull();
    expect(matchTotp(rfcSecret, totpCode(rfcSecret, now + 30_000), now, step)).toBe(step + 1);
  });
});
