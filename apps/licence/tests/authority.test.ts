import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { licenceActivateResponseSchema, licenceStatusResponseSchema } from '@rampart/contracts';
import { buildAuthority, findLicence, issueLicence, readActivationLog, type LicenceDb } from '../src/index.ts';
import { deviceId, tempDb } from './support/temp-db.ts';

const day = 86_400_000;
const start = Date.UTC(2026, 0, 1);

let db: LicenceDb;
let cleanup: () => void;
let app: FastifyInstance;
let clock: number;

beforeEach(() => {
  ({ db, cleanup } = tempDb());
  clock = start;
  app = buildAuthority({ db, now: () => clock, rateLimit: { max: 1_000, windowMs: 60_000 } });
});
afterEach(async () => {
  await app.close();
  cleanup();
});

async function post(url: string, payload: object): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await app.inject({ method: 'POST', url, payload });
  return { status: res.statusCode, body: res.json() };
}
const activate = (payload: object) => post('/v1/activate', payload);
const status = (payload: object) => post('/v1/status', payload);
const issue = (days = 30, transfers = 1) => issueLicence(db, { days, transfers, now: start });

describe('POST /v1/activate', () => {
  it('binds an unbound code to the device and answers with the grant', async () => {
    const { code, product_id, expires_at } = issue(30, 2);
    const a = deviceId();
    const res = await activate({ code, device_id: a });
    expect(res.status).toBe(200);
    expect(licenceActivateResponseSchema.parse(res.body)).toEqual({
      status: 'activated',
      code,
      product_id,
      device_id: a,
      expires_at,
      transfers_left: 2,
    });
    expect(findLicence(db, code)).toMatchObject({ device_id: a, activated_at: start, moved_at: null, transfers_left: 2 });
  });

  it('is idempotent for the device that holds the code and spends no relocation', async () => {
    const { code } = issue(30, 1);
    const a = deviceId();
    await activate({ code, device_id: a });
    clock += 1_000;
    const again = await activate({ code, device_id: a, confirm_move: true });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'activated', device_id: a, transfers_left: 1 });
    expect(findLicence(db, code)).toMatchObject({ device_id: a, transfers_left: 1, moved_at: null });
  });

  it('asks for confirmation before moving the code to another device, changing nothing', async () => {
    const { code } = issue(30, 2);
    const a = deviceId();
    await activate({ code, device_id: a });
    const res = await activate({ code, device_id: deviceId() });
    expect(res).toEqual({ status: 200, body: { status: 'need_confirm', transfers_left: 2 } });
    expect(findLicence(db, code)).toMatchObject({ device_id: a, transfers_left: 2 });
  });

  it('moves the code when confirmed, spending one relocation and recording when', async () => {
    const { code } = issue(30, 2);
    const [a, b] = [deviceId(), deviceId()];
    await activate({ code, device_id: a });
    clock += day;
    const res = await activate({ code, device_id: b, confirm_move: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'activated', device_id: b, transfers_left: 1 });
    expect(findLicence(db, code)).toMatchObject({ device_id: b, transfers_left: 1, moved_at: start + day, activated_at: start + day });
  });

  it('refuses a move when no relocations are left, confirmed or not', async () => {
    const { code } = issue(30, 0);
    const a = deviceId();
    await activate({ code, device_id: a });
    for (const confirm_move of [true, false]) {
      expect(await activate({ code, device_id: deviceId(), confirm_move })).toEqual({ status: 409, body: { error: 'no_transfers' } });
    }
    expect(findLicence(db, code)).toMatchObject({ device_id: a, transfers_left: 0 });
  });

  it('answers 404 unknown for a code that was never issued', async () => {
    expect(await activate({ code: 'ZZZ-999', device_id: deviceId() })).toEqual({ status: 404, body: { error: 'unknown' } });
  });

  it('answers 410 expired from the moment of expiry on, and does not bind', async () => {
    const { code, expires_at } = issue(1, 1);
    clock = expires_at - 1;
    const early = deviceId();
    expect((await activate({ code, device_id: early })).status).toBe(200);
    clock = expires_at;
    expect(await activate({ code, device_id: early })).toEqual({ status: 410, body: { error: 'expired' } });
    expect(await activate({ code, device_id: deviceId(), confirm_move: true })).toEqual({ status: 410, body: { error: 'expired' } });
    expect(findLicence(db, code)).toMatchObject({ device_id: early, transfers_left: 1 });
  });

  it('takes a lower-case code with surrounding spaces and stores it upper-case', async () => {
    const { code } = issue();
    const a = deviceId();
    const res = await activate({ code: `  ${code.toLowerCase()} `, device_id: a });
    expect(res.status).toBe(200);
    expect(res.body['code']).toBe(code);
    expect(findLicence(db, code)?.device_id).toBe(a);
  });

  it('answers concurrent moves within one process one at a time: one device gets the last relocation', async () => {
    const { code } = issue(30, 1);
    await activate({ code, device_id: deviceId() });
    const results = await Promise.all(Array.from({ length: 8 }, () => activate({ code, device_id: deviceId(), confirm_move: true })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body['error'] === 'no_transfers')).toHaveLength(7);
    expect(findLicence(db, code)?.transfers_left).toBe(0);
  });

  it('logs every attempt with its outcome, device and address', async () => {
    const { code } = issue(30, 1);
    const [a, b, c] = [deviceId(), deviceId(), deviceId()];
    await activate({ code, device_id: a });
    await activate({ code, device_id: a });
    await activate({ code, device_id: b });
    await activate({ code, device_id: b, confirm_move: true });
    await activate({ code, device_id: c, confirm_move: true });
    await activate({ code: 'ZZZ-999', device_id: c });
    await app.inject({ method: 'POST', url: '/v1/activate', payload: { code } });
    await app.inject({ method: 'POST', url: '/v1/activate', headers: { 'content-type': 'application/json' }, payload: '{' });
    const log = readActivationLog(db);
    expect(log.map((e) => [e.outcome, e.code, e.device_id])).toEqual([
      ['activated', code, a],
      ['reactivated', code, a],
      ['need_confirm', code, b],
      ['moved', code, b],
      ['no_transfers', code, c],
      ['unknown', 'ZZZ-999', c],
      ['bad_request', null, null],
      ['bad_request', null, null],
    ]);
    expect(new Set(log.map((e) => e.ip))).toEqual(new Set(['127.0.0.1']));
    expect(log.every((e) => e.time === start)).toBe(true);
  });
});

describe('POST /v1/status', () => {
  it('answers active with the grant for the device that holds the code', async () => {
    const { code, product_id, expires_at } = issue(30, 1);
    const a = deviceId();
    await activate({ code: code.toLowerCase(), device_id: a });
    const res = await status({ code: code.toLowerCase(), device_id: a });
    expect(res.status).toBe(200);
    expect(licenceStatusResponseSchema.parse(res.body)).toEqual({
      status: 'active',
      code,
      product_id,
      device_id: a,
      expires_at,
      transfers_left: 1,
    });
  });

  it('answers 409 moved to a device that no longer holds the code, or never did', async () => {
    const { code } = issue(30, 1);
    const [a, b] = [deviceId(), deviceId()];
    expect(await status({ code, device_id: a })).toEqual({ status: 409, body: { error: 'moved' } });
    await activate({ code, device_id: a });
    await activate({ code, device_id: b, confirm_move: true });
    expect(await status({ code, device_id: a })).toEqual({ status: 409, body: { error: 'moved' } });
    expect((await status({ code, device_id: b })).status).toBe(200);
  });

  it('answers 404 unknown and 410 expired', async () => {
    const { code, expires_at } = issue(2, 1);
    const a = deviceId();
    await activate({ code, device_id: a });
    expect(await status({ code: 'ZZZ-999', device_id: a })).toEqual({ status: 404, body: { error: 'unknown' } });
    clock = expires_at;
    expect(await status({ code, device_id: a })).toEqual({ status: 410, body: { error: 'expired' } });
  });

  it('does not write to the activation log', async () => {
    const { code } = issue();
    await status({ code, device_id: deviceId() });
    expect(readActivationLog(db)).toEqual([]);
  });
});
