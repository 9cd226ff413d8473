import { describe, expect, it } from 'vitest';
import { parseTrustedProxies, resolveClientIp } from '../src/client-ip.ts';

const cdn = parseTrustedProxies(['10.0.0.0/8', '2001:db8::/32', '192.0.2.7']);

describe('resolveClientIp (rightmost untrusted)', () => {
  it('ignores forwarding headers from an untrusted peer', () => {
    expect(resolveClientIp('203.0.113.5', '1.1.1.1', '2.2.2.2', cdn)).toBe('203.0.113.5');
    expect(resolveClientIp('203.0.113.5', '1.1.1.1', undefined, parseTrustedProxies([]))).toBe('203.0.113.5');
  });
  it('takes the rightmost address that is not a trusted proxy', () => {
    expect(resolveClientIp('10.1.1.1', '6.6.6.6, 198.51.100.9, 10.2.2.2', undefined, cdn)).toBe('198.51.100.9');
  });
  it('does not believe a forged leftmost entry', () => {
    // The client wrote "1.2.3.4" itself; the CDN appended the real peer 198.51.100.9.
    expect(resolveClientIp('10.0.0.1', ['1.2.3.4', '198.51.100.9'], undefined, cdn)).toBe('198.51.100.9');
  });
  it('falls back to the leftmost when every hop is trusted', () => {
    expect(resolveClientIp('10.0.0.1', '10.9.9.9, 192.0.2.7', undefined, cdn)).toBe('10.9.9.9');
  });
  it('uses X-Real-IP only from a trusted peer without X-Forwarded-For', () => {
    expect(resolveClientIp('10.0.0.1', undefined, '198.51.100.20', cdn)).toBe('198.51.100.20');
    expect(resolveClientIp('10.0.0.1', undefined, 'not-an-ip', cdn)).toBe('10.0.0.1');
  });
  it('handles v4-mapped peers, ports and brackets', () => {
    expect(resolveClientIp('::ffff:10.0.0.1', '198.51.100.9:4444', undefined, cdn)).toBe('198.51.100.9');
    expect(resolveClientIp('2001:db8::1', '"[2001:db9::5]:80"', undefined, cdn)).toBe('2001:db9::5');
  });
  it('stops at garbage and keeps the last good hop', () => {
    expect(resolveClientIp('10.0.0.1', 'evil, <script>, 10.3.3.3', undefined, cdn)).toBe('10.3.3.3');
  });
  it('understands ranges and * like the schema does, and skips invalid entries', () => {
    const ranges = parseTrustedProxies(['192.0.2.10-192.0.2.20', 'garbage']);
    expect(ranges.size).toBe(1);
    expect(resolveClientIp('192.0.2.15', '198.51.100.1', undefined, ranges)).toBe('198.51.100.1');
    expect(resolveClientIp('192.0.2.21', '198.51.100.1', undefined, ranges)).toBe('192.0.2.21');
    expect(resolveClientIp('203.0.113.1', '198.51.100.1, 203.0.113.9', undefined, parseTrustedProxies(['*']))).toBe('198.51.100.1');
  });
});
