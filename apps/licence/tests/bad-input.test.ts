import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { authorityBodyLimit, buildAuthority, findLicence, issueLicence, type LicenceDb } from '../src/index.ts';
import { deviceId, tempDb } from './support/temp-db.ts';

let db: LicenceDb;
let cleanup: () => void;
let app: FastifyInstance;
let code: string;

beforeAll(() => {
  ({ db, cleanup } = tempDb());
  app = buildAuthority({ db, rateLimit: { max: 10_000, windowMs: 60_000 } });
  code = issueLicence(db, { days: 30, transfers: 1 }).code;
});
afterAll(async () => {
  await app.close();
  cleanup();
});

const json = { 'content-type': 'application/json' };
const device = deviceId();

const badBodies: Array<[string, Omit<InjectOptions, 'method' | 'url'>]> = [
  ['no body at all', {}],
  ['an empty JSON body', { headers: json, payload: '' }],
  ['text that is not JSON', { headers: json, payload: 'code=ABC-DEF' }],
  ['truncated JSON', { headers: json, payload: '{"code":"ABC-DEF"' }],
  ['a JSON array', { headers: json, payload: '[]' }],
  ['a JSON string', { headers: json, payload: '"ABC-DEF"' }],
  ['JSON null', { headers: json, payload: 'null' }],
  ['a plain-text body', { headers: { 'content-type': 'text/plain' }, payload: 'hello' }],
  ['an unsupported content type', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'code=ABC-DEF' }],
  ['a body over the size limit', { headers: json, payload: JSON.stringify({ code: 'ABC-DEF', device_id: device, pad: 'x'.repeat(authorityBodyLimit) }) }],
  ['a numeric code', { payload: { code: 123456, device_id: device } }],
  ['a code of the wrong shape', { payload: { code: 'ABCDEF', device_id: device } }],
  ['a code with letters outside ASCII', { payload: { code: 'ÄBC-DEF', device_id: device } }],
  ['a device ID in upper case', { payload: { code: 'ABC-DEF', device_id: device.toUpperCase() } }],
  ['a short device ID', { payload: { code: 'ABC-DEF', device_id: 'abc' } }],
  ['a device ID array', { payload: { code: 'ABC-DEF', device_id: [device] } }],
  ['a missing device ID', { payload: { code: 'ABC-DEF' } }],
  ['an extra field', { payload: { code: 'ABC-DEF', device_id: device, admin: true } }],
  ['a __proto__ key', { headers: json, payload: `{"code":"ABC-DEF","device_id":"${device}","__proto__":{"x":1}}` }],
];

describe.each(['/v1/activate', '/v1/status'])('%s rejects malformed input with 400 bad_request', (url) => {
  it.each(badBodies)('%s', async (_name, options) => {
    const res = await app.inject({ method: 'POST', url, ...options });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'bad_request' });
  });
});

it.each(['yes', 1, null])('/v1/activate rejects confirm_move %j, which is not a boolean', async (confirm_move) => {
  const res = await app.inject({ method: 'POST', url: '/v1/activate', payload: { code, device_id: device, confirm_move } });
  expect(res.statusCode).toBe(400);
  expect(findLicence(db, code)?.device_id).toBeNull();
});

describe('routes', () => {
  it.each([
    ['GET', '/v1/activate'],
    ['POST', '/v1/activate/extra'],
    ['GET', '/'],
    ['POST', '/v2/status'],
  ] as const)('%s %s is 404', async (method, url) => {
    const res = await app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found' });
  });

  it('malformed input left the licence untouched', () => {
    expect(findLicence(db, code)).toMatchObject({ device_id: null, transfers_left: 1 });
  });
});
