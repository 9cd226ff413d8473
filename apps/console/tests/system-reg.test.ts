import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, deviceA, startHarness, type Harness } from './support/harness.ts';

/*
 * The soft_reg tab's calls (GET, POST /system/reg; POST /system/reg/refresh) against a real licence
 * authority on loopback, as the tab uses them while the console is registered.
 */

let h: Harness;
let token: string;
let trialCode: string;

beforeAll(async () => {
  h = await startHarness({ agent: false });
  trialCode = h.issue(30, 1);
  const admin = await h.register(trialCode);
  token = await h.login(admin.username, admin.password);
});
afterAll(() => h.close());

type Lang = 'zh-CN' | 'en-US';
const get = async () => (await h.app.inject({ url: '/magapi/system/reg', headers: auth(token) })).json() as { code: number; data: Record<string, unknown> };
async function post(url: string, payload?: unknown, lang: Lang = 'en-US') {
  const res = await h.app.inject({ method: 'POST', url: `/magapi${url}`, headers: { ...auth(token), 'accept-language': lang }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: res.json() as { code: number; msg: string; data?: Record<string, unknown> } };
}

describe('soft_reg calls', () => {
  it('shows key, expiry, device, product and transfers; refresh reads what the authority says now', async () => {
    const info = (await get()).data;
    expect(info).toMatchObject({ product_key: trialCode, device_id: deviceA, transfers_left: 1, expired: false });
    expect(info.product_id).toMatch(/\S/);
    // The vendor extends the licence; refresh picks it up.
    const later = Date.now() + 90 * 86_400_000;
    h.licenceDb.prepare('UPDATE licences SET expires_at = ?, transfers_total = 4, transfers_left = 4 WHERE code = ?').run(later, trialCode);
    expect((await post('/system/reg/refresh')).body).toMatchObject({ code: 0, msg: 'Licence information refreshed' });
    expect((await get()).data).toMatchObject({ expires_at: later, transfers_left: 4 });
  });

  it('re-registers with a key bound elsewhere only after the move is confirmed, and keeps the admin password', async () => {
    const code = h.issue(365, 2);
    const elsewhere = await fetch(`http://127.0.0.1:${(h.authority.server.address() as { port: number }).port}/v1/activate`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, device_id: 'b'.repeat(32) }),
    });
    expect(elsewhere.status).toBe(200);
    const ask = await post('/system/reg', { key: code, agree: true });
    expect(ask.body).toMatchObject({ code: 0, data: { status: 'need_confirm', transfers_left: 2 } });
    expect((await get()).data.product_key).toBe(trialCode);
    const moved = await post('/system/reg', { key: code, agree: true, confirm_move: true }, 'zh-CN');
    expect(moved.body).toMatchObject({ code: 0, msg: '注册成功', data: { status: 'registered', username: 'admin', password: null } });
    expect((await get()).data).toMatchObject({ product_key: code, transfers_left: 1 });
  });

  it('refuses bad keys on the field in both languages, and the tab is for system settings only', async () => {
    for (const [lang, empty, format] of [['en-US', 'Please enter the licence code', 'Licence codes look like AAA-BBB'], ['zh-CN', '请输入授权码', '授权码格式应为 AAA-BBB']] as const) {
      expect((await post('/system/reg', { key: ' ', agree: true }, lang))).toMatchObject({ status: 400, body: { msg: empty, data: { field: 'key' } } });
      expect((await post('/system/reg', { key: 'ABCD-1', agree: true }, lang))).toMatchObject({ status: 400, body: { msg: format, data: { field: 'key' } } });
    }
    expect((await post('/system/reg', { key: 'ZZZ-ZZZ', agree: true })).body).toMatchObject({ code: 2, msg: 'No such licence code' });
    const tech = await h.addUser('technician');
    expect((await h.app.inject({ url: '/magapi/system/reg', headers: auth(tech.token) })).statusCode).toBe(403);
    expect((await h.app.inject({ method: 'POST', url: '/magapi/system/reg/refresh', headers: auth(tech.token) })).statusCode).toBe(403);
  });
});
