import { describe, expect, it } from 'vitest';
import { WrongPasswordLimiter } from '../src/authorize-limiter.ts';
import { pageLanguage, safeReturn } from '../src/gateway-pages.ts';
import { hasValidPass, passCookie, signToken, verifyToken } from '../src/gateway-tokens.ts';

const key = Buffer.alloc(32, 7);

describe('gateway pages: the pure parts', () => {
  it('sends visitors back only to a path of the same site', () => {
    expect(safeReturn('/shop/cart?id=3')).toBe('/shop/cart?id=3');
    for (const bad of ['//evil.example/', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '/.rampart/verify', '/a\r\nSet-Cookie: x=1', '', null, undefined]) {
      expect(safeReturn(bad)).toBe('/');
    }
  });

  it('chooses Chinese or English by Accept-Language, honouring q-values', () => {
    expect(pageLanguage(undefined)).toBe('en-US');
    expect(pageLanguage('zh-CN,zh;q=0.9')).toBe('zh-CN');
    expect(pageLanguage('en-GB,zh;q=0.8')).toBe('en-US');
    expect(pageLanguage('fr-FR,zh-TW;q=0.7,en;q=0.5')).toBe('zh-CN');
    expect(pageLanguage('de-DE')).toBe('en-US');
    expect(pageLanguage('zh;q=0,en')).toBe('en-US');
  });

  it('signs tokens bound to purpose, site, address and extra, and lets them expire', () => {
    const now = 1_800_000_000_000;
    const t = signToken(key, 'ticket', 'shop', '192.0.2.1', now + 1000, '/x');
    expect(verifyToken(key, 'ticket', 'shop', '192.0.2.1', now, t, '/x')).toBe(true);
    expect(verifyToken(key, 'ticket', 'shop', '192.0.2.1', now + 1000, t, '/x')).toBe(false);
    expect(verifyToken(key, 'ticket', 'shop', '192.0.2.2', now, t, '/x')).toBe(false);
    expect(verifyToken(key, 'ticket', 'blog', '192.0.2.1', now, t, '/x')).toBe(false);
    expect(verifyToken(key, 'ticket', 'shop', '192.0.2.1', now, t, '/y')).toBe(false);
    expect(verifyToken(key, 'pass', 'shop', '192.0.2.1', now, t, '/x')).toBe(false);
    expect(verifyToken(Buffer.alloc(32, 8), 'ticket', 'shop', '192.0.2.1', now, t, '/x')).toBe(false);
    expect(verifyToken(key, 'ticket', 'shop', '192.0.2.1', now, `${now + 999_999}.${t.split('.')[1]}`, '/x')).toBe(false);
    const cookie = passCookie(key, 'shop', '192.0.2.1', now, true);
    expect(cookie).toMatch(/; Secure$/);
    const header = `a=1; ${cookie.split(';')[0]}; b=2`;
    expect(hasValidPass(key, 'shop', '192.0.2.1', now + 60_000, header)).toBe(true);
    expect(hasValidPass(key, 'shop', '192.0.2.1', now + 31 * 60_000, header)).toBe(false);
  });

  it('locks the authorization form after five wrong passwords for the rest of ten minutes', () => {
    const limiter = new WrongPasswordLimiter();
    const t = 1_000_000;
    for (let i = 0; i < 5; i++) {
      expect(limiter.locked('192.0.2.1', t + i)).toBe(false);
      limiter.wrong('192.0.2.1', t + i);
    }
    expect(limiter.locked('192.0.2.1', t + 10)).toBe(true);
    expect(limiter.locked('192.0.2.2', t + 10)).toBe(false);
    expect(limiter.locked('192.0.2.1', t + 10 * 60_000)).toBe(false);
    const small = new WrongPasswordLimiter(1, 60_000, 2);
    small.wrong('a', 0);
    small.wrong('b', 0);
    small.wrong('c', 0);
    expect(small.locked('a', 1)).toBe(false); // the oldest was dropped at the cap
    expect(small.locked('c', 1)).toBe(true);
  });
});
