import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildAuthority, defaultRateLimit, issueLicence, readActivationLog, type LicenceDb } from '../src/index.ts';
import { clientKey } from '../src/client-key.ts';
import { deviceId, tempDb } from './support/temp-db.ts';

let db: LicenceDb;
let cleanup: () => void;
let app: FastifyInstance;
let clock: number;
let code: string;

beforeEach(() => {
  ({ db, cleanup } = tempDb());
  clock = 1_000_000;
  app = buildAuthority({ db, now: () => clock });
  code = issueLicence(db, { days: 30, transfers: 1, now: clock }).code;
});
afterEach(async () => {
  await app.close();
  cleanup();
});

const device = deviceId();
const activateFrom = (remoteAddress: string) =>
  app.inject({ method: 'POST', url: '/v1/activate', remoteAddress, payload: { code, device_id: device } });
const statusFrom = (remoteAddress: string) =>
  app.inject({ method: 'POST', url: '/v1/status', remoteAddress, payload: { code, device_id: device } });

describe('rate limit per client address', () => {
  it(`allows ${defaultRateLimit.max} requests a minute across both routes, then answers 429`, async () => {
    expect(defaultRateLimit).toEqual({ max: 30, windowMs: 60_000 });
    for (let i = 0; i < 15; i++) expect((await activateFrom('203.0.113.7')).statusCode).toBe(200);
    for (let i = 0; i < 15; i++) expect((await statusFrom('203.0.113.7')).statusCode).toBe(200);
    const limited = await statusFrom('203.0.113.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: 'rate_limited' });
    expect((await activateFrom('203.0.113.7')).statusCode).toBe(429);
    // Refused requests are not logged, so a flood cannot grow the database.
    expect(readActivationLog(db)).toHaveLength(15);
  });

  it('counts each address separately and opens again after the window', async () => {
    for (let i = 0; i < 30; i++) await statusFrom('203.0.113.7');
    expect((await statusFrom('203.0.113.7')).statusCode).toBe(429);
    expect((await statusFrom('203.0.113.8')).statusCode).toBe(409);
    clock += 59_999;
    expect((await statusFrom('203.0.113.7')).statusCode).toBe(429);
    clock += 1;
    expect((await statusFrom('203.0.113.7')).statusCode).toBe(409);
  });

  it('counts malformed and oversized bodies too', async () => {
    for (let i = 0; i < 30; i++) {
      const res = await app.inject({ method: 'POST', url: '/v1/activate', remoteAddress: '198.51.100.1', headers: { 'content-type': 'application/json' }, payload: 'x'.repeat(20_000) });
      expect(res.statusCode).toBe(400);
    }
    expect((await activateFrom('198.51.100.1')).statusCode).toBe(429);
  });

  it('treats an IPv6 /64 as one client', async () => {
    for (let i = 0; i < 30; i++) expect((await statusFrom(`2001:db8:1:2::${(i + 1).toString(16)}`)).statusCode).toBe(409);
    expect((await statusFrom('2001:db8:1:2:ffff:ffff:ffff:ffff')).statusCode).toBe(429);
    expect((await statusFrom('2001:db8:1:3::1')).statusCode).toBe(409);
  });
});

describe('clientKey', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('%s → %s', (ip, key) => {
    expect(clientKey(ip)).toBe(key);
  });
});
