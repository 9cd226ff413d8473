import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderEvent, terminalGraceSeconds, type EventRecord } from '@rampart/contracts';
import { sweepTerminals } from '../src/services/trust-terminals.ts';
import { auth, startHarness, type Harness } from './support/harness.ts';

/*
 * The trust terminal (issue 28) against a real agent on a real socket: the super-whitelist entry it
 * holds is the agent's (desired state; the kernel side of a trusted address is tested in network
 * namespaces in apps/agent/tests). The clock is the harness's, shared by console and agent.
 */

let h: Harness;
let admin: { username: string; password: string };
/** A fresh session: the tests move the clock by hours, past the session timeout. */
const adminToken = () => h.login(admin.username, admin.password);

beforeAll(async () => {
  h = await startHarness();
  admin = await h.register();
  await h.addUser('other', 'roamer', 'Secret123');
  await h.addUser('other', 'second', 'Secret123');
});
afterAll(() => h.close());

type Lang = 'zh-CN' | 'en-US';
interface CallOptions { token: string; ip?: string; lang?: Lang; headers?: Record<string, string> }
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- envelopes of several routes
type Body = { code: number; msg: string; data?: any };

async function call(method: 'GET' | 'POST', url: string, options: CallOptions, payload?: unknown) {
  const res = await h.app.inject({
    method, url: `/magapi${url}`, remoteAddress: options.ip ?? '198.51.100.20',
    headers: { ...auth(options.token), 'accept-language': options.lang ?? 'en-US', ...options.headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: res.statusCode, body: res.json() as Body };
}

async function terminalSignIn(username: string, ip = '198.51.100.20'): Promise<string> {
  const res = await h.app.inject({ method: 'POST', url: '/magapi/login', payload: { username, password: 'Secret123', client: 'terminal' }, remoteAddress: ip });
  const body = res.json() as Body;
  if (body.code !== 0) throw new Error(`terminal sign-in failed: ${res.body}`);
  return body.data.token as string;
}

const trusted = async (ip: string) => (await h.agentClient.call('trust.check', { ip })).trusted;
const entryOf = async (ip: string) => (await h.agentClient.call('trust.list', { keyword: ip, offset: 0, limit: 10 })).list.find((e) => e.address === ip);

async function events(kind: string): Promise<EventRecord[]> {
  await h.console.ctx.events.flush();
  const page = await h.agentClient.call('events.query', { limit: 1000 });
  return page.list.filter((e) => e.kind === kind);
}

const graceMs = terminalGraceSeconds * 1000;

describe('trust terminal: an `other` account keeps its address trusted while the terminal beats', () => {
  it('signs in only through the terminal, whose token opens nothing in the console', async () => {
    const console = await h.app.inject({ method: 'POST', url: '/magapi/login', payload: { username: 'roamer', password: 'Secret123' }, remoteAddress: '198.51.100.20', headers: { 'accept-language': 'en-US' } });
    expect(console.json()).toMatchObject({ code: 2, msg: 'This account signs in only through the trust terminal: open /trust on this panel' });
    const token = await terminalSignIn('roamer');
    expect((await events('terminal.signed_in')).some((e) => e.account === 'roamer' && e.ip === '198.51.100.20')).toBe(true);
    // Signed in is not trusted yet: the terminal shows the address first.
    expect(await trusted('198.51.100.20')).toBe(false);
    for (const url of ['/home/index', '/system/trust/ip', '/log/system']) expect((await call('GET', url, { token })).status, url).toBe(401);
    // ... and a console session cannot beat.
    const beat = await call('POST', '/terminal/beat', { token: await adminToken() });
    expect(beat.status).toBe(401);
    expect(beat.body.msg).toBe('This trust terminal is not signed in or has ended: sign in again');
    await call('POST', '/terminal/stop', { token });
  });

  it('holds the address while it beats, lets it lapse a grace after the last beat, and takes it back on the next beat', async () => {
    const ip = '198.51.100.21';
    const token = await terminalSignIn('roamer', ip);
    const address = await call('GET', '/terminal/address', { token, ip });
    expect(address.body.data).toMatchObject({ ip, local: false, proxy_headers: [], shared_with: 0 });

    const start = h.clock.now;
    const started = await call('POST', '/terminal/start', { token, ip, lang: 'zh-CN' }, { keep_hours: 0 });
    expect(started.body).toMatchObject({ code: 0, msg: `已开始信任 ${ip}`, data: { state: 'trusted', ip, account: 'roamer', trusted_until: start + graceMs } });
    expect(await trusted(ip)).toBe(true);
    expect(await entryOf(ip)).toMatchObject({ source: 'terminal', added_by: 'roamer', expires_at: start + graceMs });

    // Beats move the end on: after 10 minutes of beats every 30 s it is still trusted.
    for (let i = 0; i < 20; i++) {
      h.clock.now += 30_000;
      const beat = await call('POST', '/terminal/beat', { token, ip });
      expect(beat.body.data.state).toBe('trusted');
      sweepTerminals(h.console.ctx, h.clock.now);
    }
    expect(await entryOf(ip)).toMatchObject({ expires_at: h.clock.now + graceMs });
    expect(await trusted(ip)).toBe(true);
    expect(await events('terminal.expired')).toHaveLength(0);

    // The terminal closes: no more beats. Just before the grace ends it is still trusted, then not.
    const lastBeat = h.clock.now;
    h.clock.now = lastBeat + graceMs - 1000;
    sweepTerminals(h.console.ctx, h.clock.now);
    expect(await trusted(ip)).toBe(true);
    h.clock.now = lastBeat + graceMs + 1000;
    sweepTerminals(h.console.ctx, h.clock.now);
    expect(await trusted(ip)).toBe(false);
    const expired = await events('terminal.expired');
    expect(expired).toHaveLength(1);
    expect(renderEvent('terminal.expired', expired[0]!.params, 'en-US').content).toBe(`The trust terminal of roamer has not beaten for 3 min: ${ip} is no longer trusted`);
    const listed = await call('GET', '/system/trust/terminals', { token: await adminToken() });
    expect(listed.body.data.list.find((t: { ip: string }) => t.ip === ip)).toMatchObject({ account: 'roamer', state: 'lapsed', trusted_until: null, last_beat: lastBeat });

    // The laptop wakes up 20 minutes later: the next beat takes the address back, and says so.
    h.clock.now = lastBeat + 20 * 60_000;
    const back = await call('POST', '/terminal/beat', { token, ip });
    expect(back.body.data.state).toBe('trusted');
    expect(await trusted(ip)).toBe(true);
    const gaps = await events('terminal.beat_gap');
    expect(gaps).toHaveLength(1);
    expect(renderEvent('terminal.beat_gap', gaps[0]!.params, 'zh-CN').content).toBe(`信任终端（账号 roamer，${ip}）中断了 20 分钟后恢复心跳，该地址重新被信任`);

    // Stop: the entry goes at once, and so does the token.
    const stopped = await call('POST', '/terminal/stop', { token, ip });
    expect(stopped.body).toMatchObject({ code: 0, msg: 'Trust stopped and the terminal ended' });
    expect(await trusted(ip)).toBe(false);
    expect((await call('POST', '/terminal/beat', { token, ip })).status).toBe(401);
    expect((await events('terminal.stopped')).length).toBeGreaterThanOrEqual(1);
  });

  it('keeps the address for the hours the account chose even after the terminal closes', async () => {
    const ip = '198.51.100.22';
    const token = await terminalSignIn('roamer', ip);
    const start = h.clock.now;
    const started = await call('POST', '/terminal/start', { token, ip }, { keep_hours: 8 });
    expect(started.body.data).toMatchObject({ state: 'trusted', keep_until: start + 8 * 3_600_000, trusted_until: start + 8 * 3_600_000 });
    h.clock.now = start + 7 * 3_600_000;
    sweepTerminals(h.console.ctx, h.clock.now);
    expect(await trusted(ip)).toBe(true);
    h.clock.now = start + 8 * 3_600_000 + 1000;
    sweepTerminals(h.console.ctx, h.clock.now);
    expect(await trusted(ip)).toBe(false);
    await call('POST', '/terminal/stop', { token, ip });
  });

  it('says when the address looks shared (a proxy, or another account on it) and trusts it only when confirmed', async () => {
    const ip = '198.51.100.23';
    const token = await terminalSignIn('roamer', ip);
    const proxied = { token, ip, headers: { 'x-forwarded-for': '10.1.2.3', via: '1.1 squid' } };
    const address = await call('GET', '/terminal/address', proxied);
    expect(address.body.data.proxy_headers).toEqual(['via', 'x-forwarded-for']);
    for (const lang of ['en-US', 'zh-CN'] as const) {
      const refused = await call('POST', '/terminal/start', { ...proxied, lang }, { keep_hours: 0 });
      expect(refused.body.code).toBe(2);
      expect(refused.body.msg).toBe(
        lang === 'en-US'
          ? 'Your request came through a proxy (via, x-forwarded-for): trusting this address trusts everyone behind the proxy. Confirm to start'
          : '你的请求经过了代理（via, x-forwarded-for）：信任这个地址等于信任代理背后的所有人。确认后再开始',
      );
    }
    expect(await trusted(ip)).toBe(false);
    const accepted = await call('POST', '/terminal/start', proxied, { keep_hours: 0, accept_proxy: true });
    expect(accepted.body.data.state).toBe('trusted');
    const row = (await call('GET', '/system/trust/terminals', { token: await adminToken() })).body.data.list.find((t: { ip: string }) => t.ip === ip);
    expect(row).toMatchObject({ account: 'roamer', proxied: true, state: 'trusted' });

    // A second account's terminal on the same address is told it is shared.
    const other = await terminalSignIn('second', ip);
    expect((await call('GET', '/terminal/address', { token: other, ip })).body.data.shared_with).toBe(1);
    const shared = await call('POST', '/terminal/start', { token: other, ip }, { keep_hours: 0 });
    expect(shared.body.msg).toBe('Trust terminals of 1 other account(s) use this address: it is shared, and trusting it trusts everyone who shares it. Confirm to start');
    expect((await call('POST', '/terminal/start', { token: other, ip }, { keep_hours: 0, accept_proxy: true })).body.data.state).toBe('trusted');
    // One of the two stops: the other still holds the address.
    await call('POST', '/terminal/stop', proxied);
    expect(await trusted(ip)).toBe(true);
    await call('POST', '/terminal/stop', { token: other, ip });
    expect(await trusted(ip)).toBe(false);
  });

  it('lets the old address go when the terminal moves, and asks it to start again', async () => {
    const token = await terminalSignIn('roamer', '198.51.100.24');
    await call('POST', '/terminal/start', { token, ip: '198.51.100.24' }, { keep_hours: 0 });
    expect(await trusted('198.51.100.24')).toBe(true);
    const moved = await call('POST', '/terminal/beat', { token, ip: '203.0.113.24' });
    expect(moved.body).toMatchObject({ code: 2, msg: 'Your address changed from 198.51.100.24 to 203.0.113.24: the old one is no longer trusted. Start again' });
    expect(await trusted('198.51.100.24')).toBe(false);
    expect(await trusted('203.0.113.24')).toBe(false);
    expect((await call('POST', '/terminal/start', { token, ip: '203.0.113.24' }, { keep_hours: 0 })).body.data.state).toBe('trusted');
    expect(await trusted('203.0.113.24')).toBe(true);
    await call('POST', '/terminal/stop', { token, ip: '203.0.113.24' });
  });

  it('leaves an address listed by hand alone: the terminal shows it as already trusted and never removes it', async () => {
    const ip = '198.51.100.25';
    await call('POST', '/system/trust/ip', { token: await adminToken() }, { ips: [ip], days: 0, remark: 'office' });
    const token = await terminalSignIn('roamer', ip);
    const started = await call('POST', '/terminal/start', { token, ip }, { keep_hours: 0 });
    expect(started.body.data).toMatchObject({ state: 'covered', trusted_until: null });
    await call('POST', '/terminal/stop', { token, ip });
    expect(await entryOf(ip)).toMatchObject({ source: 'manual', remark: 'office', expires_at: null });
  });

  it('shows every terminal to an administrator, who can end one: its address is no longer trusted and its token dead', async () => {
    const ip = '198.51.100.26';
    const token = await terminalSignIn('roamer', ip);
    await call('POST', '/terminal/start', { token, ip }, { keep_hours: 24 });
    const list = await call('GET', '/system/trust/terminals', { token: await adminToken() });
    const row = list.body.data.list.find((t: { ip: string }) => t.ip === ip);
    expect(row).toMatchObject({ account: 'roamer', ip, state: 'trusted', started_at: h.clock.now, last_beat: h.clock.now, proxied: false });
    expect(Array.isArray(row.areas)).toBe(true);

    const ended = await call('POST', `/system/trust/terminals/end?id=${row.id}`, { token: await adminToken(), lang: 'zh-CN' });
    expect(ended.body).toMatchObject({ code: 0, msg: '已结束该信任终端' });
    expect(await trusted(ip)).toBe(false);
    expect((await call('POST', '/terminal/beat', { token, ip })).status).toBe(401);
    const endedEvents = await events('terminal.ended');
    expect(renderEvent('terminal.ended', endedEvents[0]!.params, 'en-US').content).toBe(`${admin.username} ended the trust terminal of roamer (${ip})`);
    // Again: it is gone.
    expect((await call('POST', `/system/trust/terminals/end?id=${row.id}`, { token: await adminToken() })).body).toMatchObject({ code: 2, msg: 'No such trust terminal: it may have ended' });
  });

  it('limits the rate of terminal calls per address like the sign-in', async () => {
    const ip = '198.51.100.28';
    const token = await terminalSignIn('roamer', ip);
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) statuses.push((await call('GET', '/terminal/status', { token, ip })).status);
    expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
    expect(statuses[120]).toBe(429);
    // Another address is not held back by this one.
    expect((await call('GET', '/terminal/status', { token, ip: '198.51.100.29' })).status).toBe(200);
  });

  it('ends the terminals of an account that is disabled or deleted: their addresses are no longer trusted', async () => {
    const gone = await h.addUser('other', 'leaver', 'Secret123');
    const ip = '198.51.100.30';
    const token = await terminalSignIn(gone.username, ip);
    await call('POST', '/terminal/start', { token, ip }, { keep_hours: 24 });
    expect(await trusted(ip)).toBe(true);
    const uid = (h.console.ctx.db.prepare('SELECT id FROM users WHERE username = ?').get('leaver') as { id: number }).id;
    const disabled = await call('POST', `/system/user_edit?uid=${uid}`, { token: await adminToken() }, { status: 0 });
    expect(disabled.body.code, JSON.stringify(disabled.body)).toBe(0);
    expect(await trusted(ip)).toBe(false);
    expect((await call('POST', '/terminal/beat', { token, ip })).status).toBe(401);

    // Enabled again, it signs in anew; deleted, its address goes with it.
    await call('POST', `/system/user_edit?uid=${uid}`, { token: await adminToken() }, { status: 1 });
    const again = await terminalSignIn('leaver', ip);
    await call('POST', '/terminal/start', { token: again, ip }, { keep_hours: 24 });
    expect(await trusted(ip)).toBe(true);
    expect((await call('POST', `/system/user_delete?uid=${uid}`, { token: await adminToken() })).body.code).toBe(0);
    expect(await trusted(ip)).toBe(false);
    expect((await events('terminal.ended')).filter((e) => e.params['account'] === 'leaver')).toHaveLength(2);
  });

  it('refuses bad input in both languages and changes nothing', async () => {
    const ip = '198.51.100.27';
    const token = await terminalSignIn('roamer', ip);
    for (const [payload, msg] of [
      [{ keep_hours: 5 }, { 'en-US': 'Choose how long to trust: only while the terminal runs, or 1, 8 or 24 hours', 'zh-CN': '请选择信任时长：仅在终端运行时，或 1、8、24 小时' }],
      [{}, { 'en-US': 'Choose how long to trust: only while the terminal runs, or 1, 8 or 24 hours', 'zh-CN': '请选择信任时长：仅在终端运行时，或 1、8、24 小时' }],
      [{ keep_hours: 0, accept_proxy: 'yes' }, { 'en-US': 'The confirmation for a shared address is not valid', 'zh-CN': '确认共享地址的选项有误' }],
    ] as const) {
      for (const lang of ['en-US', 'zh-CN'] as const) {
        const res = await call('POST', '/terminal/start', { token, ip, lang }, payload);
        expect(res.status, JSON.stringify(payload)).toBe(400);
        expect(res.body.msg).toBe(msg[lang]);
      }
    }
    expect((await call('POST', '/terminal/start', { token, ip }, { keep_hours: 0, extra: 1 })).status).toBe(400);
    expect((await call('POST', '/terminal/beat', { token, ip }, { x: 1 })).status).toBe(400);
    expect((await call('POST', '/system/trust/terminals/end?id=abc', { token: await adminToken() })).status).toBe(400);
    expect(await trusted(ip)).toBe(false);
    // A technician may list terminals? No: the tab is system settings, which a technician cannot open.
    const tech = await h.addUser('technician', 'tech1');
    expect((await call('GET', '/system/trust/terminals', { token: tech.token })).status).toBe(403);
    await call('POST', '/terminal/stop', { token, ip });
  });
});
