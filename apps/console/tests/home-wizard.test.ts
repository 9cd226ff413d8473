import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { homeWizardViewSchema, performanceSeriesSchema } from '@rampart/contracts';
import { auth, magapi, startHarness, type Harness } from './support/harness.ts';

let h: Harness;
let token: string;

beforeEach(async () => {
  h = await startHarness();
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterEach(() => h.close());

/** A call from a given address (the wizard's whitelist step uses the address the request came from). */
const from = (ip: string, method: 'GET' | 'POST', url: string, lang: 'zh-CN' | 'en-US' = 'en-US', payload?: object) =>
  h.app.inject({ method, url: `/magapi${url}`, remoteAddress: ip, headers: { ...auth(token), 'accept-language': lang }, ...(payload ? { payload } : {}) });

describe('the quick configuration wizard is offered once per panel', () => {
  it('is pending on a fresh panel; done or skipped is kept and read back (both languages refuse a bad state, nothing changes)', async () => {
    const first = homeWizardViewSchema.parse((await magapi(h.app, 'GET', '/home/wizard', { token })).body.data);
    expect(first.state).toBe('pending');
    for (const lang of ['zh-CN', 'en-US'] as const) {
      const bad = await magapi(h.app, 'POST', '/home/wizard', { token, lang, payload: { state: 'pending' } });
      expect(bad.status).toBe(400);
      expect(bad.body.msg).toBe(lang === 'zh-CN' ? '向导状态须为“完成”或“跳过”' : 'The wizard state must be "done" or "skipped"');
    }
    expect((await magapi(h.app, 'GET', '/home/wizard', { token })).body.data.state).toBe('pending');
    expect((await magapi(h.app, 'POST', '/home/wizard', { token, payload: { state: 'skipped' } })).body.code).toBe(0);
    // Another account of the same panel sees it as settled too.
    const other = await h.addUser('admin', 'second');
    expect((await magapi(h.app, 'GET', '/home/wizard', { token: other.token })).body.data.state).toBe('skipped');
  });

  it('technicians may settle it but not add to the super whitelist; auditors may not read it', async () => {
    const technician = await h.addUser('technician');
    expect((await magapi(h.app, 'POST', '/home/wizard', { token: technician.token, payload: { state: 'done' } })).body.code).toBe(0);
    expect((await magapi(h.app, 'POST', '/home/wizard/trust', { token: technician.token })).status).toBe(403);
    const auditor = await h.addUser('auditor');
    expect((await magapi(h.app, 'GET', '/home/wizard', { token: auditor.token })).status).toBe(403);
  });
});

describe('the whitelist step adds only the caller\'s own address, once', () => {
  it('adds the address the request came from as one permanent host entry, then says it is already covered', async () => {
    const before = homeWizardViewSchema.parse((await from('203.0.113.7', 'GET', '/home/wizard')).json().data);
    expect(before).toMatchObject({ client_ip: '203.0.113.7', address: 'untrusted' });
    // A body cannot name another address or a range: the route takes none.
    const sneaky = await from('203.0.113.7', 'POST', '/home/wizard/trust', 'en-US', { ip: '0.0.0.0/0' });
    expect(sneaky.statusCode).toBe(400);
    expect((await h.agentClient.call('trust.list', { offset: 0, limit: 10 })).total).toBe(0);

    const added = (await from('203.0.113.7', 'POST', '/home/wizard/trust', 'zh-CN')).json();
    expect(added).toMatchObject({ code: 0, msg: '已把您当前的地址 203.0.113.7 加入超级白名单（永久有效）', data: { ip: '203.0.113.7', added: true } });
    const list = await h.agentClient.call('trust.list', { offset: 0, limit: 10 });
    expect(list.list.map((e) => [e.address, e.expires_at])).toEqual([['203.0.113.7', null]]);
    expect((await from('203.0.113.7', 'GET', '/home/wizard')).json().data.address).toBe('trusted');

    const again = (await from('203.0.113.7', 'POST', '/home/wizard/trust', 'en-US')).json();
    expect(again).toMatchObject({ code: 0, msg: 'Your current address 203.0.113.7 is already on the super whitelist; nothing added', data: { added: false } });
    expect((await h.agentClient.call('trust.list', { offset: 0, limit: 10 })).total).toBe(1);
  });

  it('adds nothing for a loopback caller (always reachable) and says why', async () => {
    const res = (await from('127.0.0.1', 'POST', '/home/wizard/trust', 'en-US')).json();
    expect(res).toMatchObject({ code: 0, data: { added: false, address: 'loopback' } });
    expect(res.msg).toMatch(/loopback 127\.0\.0\.1/);
    expect((await h.agentClient.call('trust.list', { offset: 0, limit: 10 })).total).toBe(0);
  });
});

describe('GET /home/performance', () => {
  it('answers the current rates without a period and a series with one; a bad period is refused in both languages', async () => {
    const now = (await magapi(h.app, 'GET', '/home/performance', { token })).body.data;
    expect(now.rx).toBeGreaterThanOrEqual(0);
    for (const period of ['1h', '24h', '7d'] as const) {
      const series = performanceSeriesSchema.parse((await magapi(h.app, 'GET', `/home/performance?period=${period}`, { token })).body.data);
      expect(series.period).toBe(period);
    }
    for (const lang of ['zh-CN', 'en-US'] as const) {
      const bad = await magapi(h.app, 'GET', '/home/performance?period=30d', { token, lang });
      expect(bad.status).toBe(400);
      expect(bad.body.msg).toBe(lang === 'zh-CN' ? '时间范围须为 1h、24h 或 7d' : 'The period must be 1h, 24h or 7d');
    }
  });
});
