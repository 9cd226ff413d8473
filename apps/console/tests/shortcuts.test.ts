import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultAlertSettings, type AlertSettingsInput, type ShortcutInput } from '@rampart/contracts';
import { startSmtpSink } from '../../../packages/notify/tests/peers.ts';
import { auth, startHarness, type Harness } from './support/harness.ts';
import { getSetting } from '../src/db/settings.ts';

/*
 * Shortcut management and the public shortcut links, against a real agent (desired state only, no nft)
 * and a real SQLite file. The design is written at the top of src/routes/system-shortcut.ts.
 */

let h: Harness;
let token: string;

beforeAll(async () => {
  h = await startHarness();
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterAll(() => h.close());
/** Each test opens links from its own address, so the per-IP rate limits of one do not reach the next. */
let clientIp = '';
let ipSeq = 0;
beforeEach(() => {
  clientIp = `198.51.100.${++ipSeq}`;
});

type Lang = 'zh-CN' | 'en-US';
type Body = { code: number; msg: string; data?: Record<string, unknown> & { field?: string } };
async function post(url: string, payload: unknown, lang: Lang = 'en-US') {
  const res = await h.app.inject({ method: 'POST', url: `/magapi${url}`, payload: payload as object, headers: { ...auth(token), 'accept-language': lang } });
  return { status: res.statusCode, body: res.json() as Body };
}
async function list() {
  const res = await h.app.inject({ url: '/magapi/system/shortcut', headers: auth(token) });
  return { raw: res.body, rows: (res.json() as { data: { list: Array<Record<string, unknown>> } }).data.list };
}

const base = { enabled: true, expires_at: null, max_uses: 0 } as const;
let seq = 0;
/** Adds a shortcut; resolves to its id and its link path. */
async function add(input: Partial<ShortcutInput> & Pick<ShortcutInput, 'action'>) {
  const res = await post('/system/shortcut', { ...base, name: `shortcut ${++seq}`, ...input });
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 0 });
  const data = res.body.data as { shortcut: { id: number }; link: string };
  return { id: data.shortcut.id, link: data.link };
}

/** Opens a link as a browser or a link previewer would: no session. */
const open = (link: string, lang: Lang = 'en-US', ip = clientIp) =>
  h.app.inject({ url: link, headers: { 'accept-language': lang }, remoteAddress: ip });
/** The confirmation page's button: a form POST to the same address. */
const run = (link: string, lang: Lang = 'en-US', ip = clientIp) =>
  h.app.inject({ method: 'POST', url: link, payload: 'confirm=1', headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': lang }, remoteAddress: ip });

/** System protection as the agent holds it. */
const protection = () => h.agentClient.call('protection.get', {});
const intercepts = async () => (await h.agentClient.call('firewall.intercept.list', { offset: 0, limit: 100 })).list;
async function events(kind: string) {
  await h.console.ctx.events.flush();
  return (await h.agentClient.call('events.query', { limit: 100 })).list.filter((e) => e.kind === kind);
}

describe('shortcut links', () => {
  it('creates a link shown once; lists never carry the token or its hash', async () => {
    const res = await post('/system/shortcut', { ...base, name: 'Pause 30', action: { operation: 'pause_protection', minutes: 30 } });
    expect(res.body).toMatchObject({ code: 0, msg: 'Shortcut created. Copy the link now: it is shown only once' });
    const link = (res.body.data as { link: string }).link;
    expect(link).toMatch(/^\/shortcut\/[A-Za-z0-9_-]{43}$/);
    const secret = link.split('/').pop()!;
    const { raw, rows } = await list();
    expect(rows.find((r) => r.name === 'Pause 30')).toMatchObject({ status: 'active', uses: 0, created_by: 'admin', action: { operation: 'pause_protection', minutes: 30 } });
    expect(raw).not.toContain(secret);
    expect(raw).not.toContain('token');
    // Stored only as a hash.
    expect(JSON.stringify(getSetting(h.console.ctx.db, 'shortcuts'))).not.toContain(secret);
    // An edit keeps the link and returns none.
    const id = (res.body.data as { shortcut: { id: number } }).shortcut.id;
    const edited = await post('/system/shortcut', { ...base, id, name: 'Pause 30', action: { operation: 'pause_protection', minutes: 45 } });
    expect(edited.body).toMatchObject({ code: 0, msg: 'Saved', data: { link: null } });
    expect((await open(link)).statusCode).toBe(200);
  });

  it('GET only shows the question in the browser language; the POST runs it and is recorded with the client IP', async () => {
    const { link } = await add({ name: 'Night pause', action: { operation: 'pause_protection', minutes: 20 } });
    const page = await open(link, 'en-US');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('Pause protection for 20 minutes?');
    expect(page.body).toContain('<form method="post">');
    expect((await open(link, 'zh-CN')).body).toContain('暂停系统防护 20 分钟？');
    // A second and third GET (previewers, prefetchers) still run nothing.
    await open(link);
    expect((await protection()).mode).toBe('on');

    const done = await run(link, 'zh-CN');
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('系统防护已暂停 20 分钟');
    expect(await protection()).toMatchObject({ mode: 'temp_off', minutes_left: 20, account: 'shortcut:Night pause' });
    const recorded = await events('shortcut.pause_protection');
    expect(recorded.at(-1)).toMatchObject({ ip: clientIp, module: 'system', params: { name: 'Night pause', minutes: 20 } });
    const row = (await list()).rows.find((r) => r.name === 'Night pause');
    expect(row).toMatchObject({ uses: 1, last_used_ip: clientIp, last_used_at: h.clock.now });

    // Resume through its own link.
    const resume = await add({ name: 'Resume', action: { operation: 'resume_protection' } });
    expect((await post('/system/shortcut/test', { id: resume.id })).body).toMatchObject({ code: 0, data: { ready: true } });
    expect((await run(resume.link)).body).toContain('Protection is on again.');
    expect((await protection()).mode).toBe('on');
    expect((await post('/system/shortcut/test', { id: resume.id })).body).toMatchObject({ code: 1, msg: 'Protection is on already: running it now would change nothing' });
  });

  it('unblock_ip removes the address from the real agent\'s interception list, only after the confirmation', async () => {
    const guard = { admin_ip: null, panel_port: 6688, account: 'admin' };
    await h.agentClient.call('firewall.intercept.add', { ips: ['203.0.113.9', '2001:db8::9', '203.0.113.99'], minutes: 60, remark: 'test', guard });
    const { id, link } = await add({ name: 'Unblock office', action: { operation: 'unblock_ip', ip: '2001:DB8:0::9' } });

    const check = await post('/system/shortcut/test', { id });
    expect(check.body).toMatchObject({ code: 0, msg: 'Check passed: 2001:DB8:0::9 is in the interception list (1); running it unblocks it', data: { ready: true } });
    expect((await open(link)).body).toContain('Unblock 2001:DB8:0::9?');
    expect((await intercepts()).map((e) => e.ip).sort()).toEqual(['2001:db8::9', '203.0.113.9', '203.0.113.99'].sort());

    expect((await run(link)).body).toContain('was unblocked (1).');
    expect((await intercepts()).map((e) => e.ip).sort()).toEqual(['203.0.113.9', '203.0.113.99']);
    expect((await events('shortcut.unblock_ip')).at(-1)).toMatchObject({ ip: clientIp, params: { ip: '2001:DB8:0::9', count: 1 } });
    // Nothing left to unblock: the check says so, a second run changes nothing.
    expect((await post('/system/shortcut/test', { id })).body).toMatchObject({ code: 1, data: { ready: false } });
    expect((await run(link)).body).toContain('was not blocked; nothing to do.');

    // 203.0.113.9 must not take 203.0.113.99 with it.
    const v4 = await add({ name: 'Unblock v4', action: { operation: 'unblock_ip', ip: '203.0.113.9' } });
    await run(v4.link);
    expect((await intercepts()).map((e) => e.ip)).toEqual(['203.0.113.99']);
  });

  it('restart_panel asks the agent for a software restart', async () => {
    const { link } = await add({ name: 'Restart', action: { operation: 'restart_panel' } });
    expect((await run(link)).body).toContain('The panel is restarting');
    await expect.poll(() => h.executed).toContain('restart');
  });

  it('disabled, expired, used-up, deleted, re-issued and unknown links all get the same 404 and run nothing', async () => {
    const notFound = (await open(`/shortcut/${'A'.repeat(43)}`)).body;
    const expectGone = async (link: string) => {
      for (const res of [await open(link), await run(link)]) {
        expect(res.statusCode).toBe(404);
        expect(res.body).toBe(notFound);
      }
    };
    expect(notFound).toContain('This link does not exist or no longer works.');
    expect((await open('/shortcut/short')).body).toBe(notFound);
    expect((await open(`/shortcut/${'A'.repeat(43)}`, 'zh-CN')).body).toContain('该链接不存在或已失效');

    const runsBefore = (await events('shortcut.pause_protection')).length;
    const pause = { action: { operation: 'pause_protection' as const, minutes: 5 } };
    const disabled = await add({ ...pause, enabled: false });
    await expectGone(disabled.link);
    expect((await post('/system/shortcut/test', { id: disabled.id })).body).toMatchObject({ code: 1, data: { ready: false } });

    const expiring = await add({ ...pause, expires_at: h.clock.now + 60_000 });
    expect((await open(expiring.link)).statusCode).toBe(200);
    h.clock.now += 61_000;
    await expectGone(expiring.link);
    expect((await list()).rows.find((r) => r.id === expiring.id)?.status).toBe('expired');

    const once = await add({ ...pause, max_uses: 1 });
    expect((await run(once.link)).statusCode).toBe(200);
    await expectGone(once.link);
    expect((await list()).rows.find((r) => r.id === once.id)).toMatchObject({ status: 'used_up', uses: 1 });

    const reissued = await add(pause);
    const fresh = await post('/system/shortcut/reissue', { id: reissued.id });
    expect(fresh.body.msg).toMatch(/old one no longer works/);
    await expectGone(reissued.link);
    expect((await open((fresh.body.data as { link: string }).link)).statusCode).toBe(200);

    const deleted = await add(pause);
    expect((await post('/system/shortcut/delete', { ids: [deleted.id] })).body).toMatchObject({ code: 0 });
    await expectGone(deleted.link);
    // Of all these, only the one-use link's single run happened.
    expect((await events('shortcut.pause_protection')).length).toBe(runsBefore + 1);
  });

  it('refuses bad input on the field in both languages and saves nothing', async () => {
    const before = JSON.stringify(getSetting(h.console.ctx.db, 'shortcuts'));
    const pause = { operation: 'pause_protection', minutes: 10 };
    const cases: Array<[Record<string, unknown>, string, Record<Lang, string>]> = [
      [{ name: '  ' }, 'name', { 'en-US': 'Please enter a name for the shortcut', 'zh-CN': '请输入快捷操作名称' }],
      [{ name: 'x'.repeat(65) }, 'name', { 'en-US': 'Names are at most 64 characters', 'zh-CN': '名称最多 64 个字符' }],
      [{ action: { operation: 'rm_rf' } }, 'action.operation', { 'en-US': 'Please choose the operation to run', 'zh-CN': '请选择要执行的操作' }],
      [{ action: { operation: 'pause_protection', minutes: 0 } }, 'action.minutes', { 'en-US': 'The pause is a whole number of minutes from 1 to 525600', 'zh-CN': '暂停时长须为 1-525600 分钟的整数' }],
      [{ action: { operation: 'unblock_ip', ip: '10.0.0.0/8' } }, 'action.ip', { 'en-US': 'Enter one IP address (IPv4 or IPv6)', 'zh-CN': '请输入一个 IP 地址（IPv4 或 IPv6）' }],
      [{ max_uses: -1 }, 'max_uses', { 'en-US': 'Uses allowed is a whole number from 0 to 1000 (0 = no limit)', 'zh-CN': '可用次数须为 0-1000 的整数（0 为不限）' }],
      [{ expires_at: 'tomorrow' }, 'expires_at', { 'en-US': 'The validity is not a valid time', 'zh-CN': '有效期无效' }],
    ];
    for (const [patch, field, msgs] of cases) {
      for (const lang of ['en-US', 'zh-CN'] as const) {
        const res = await post('/system/shortcut', { ...base, name: 'ok', action: pause, ...patch }, lang);
        expect(res.status, JSON.stringify(patch)).toBe(400);
        expect(res.body.data?.field, JSON.stringify(patch)).toBe(field);
        expect(res.body.msg, `${lang} ${JSON.stringify(patch)}`).toMatch(new RegExp(`^${msgs[lang].replace(/[()]/g, '\\$&')}`));
      }
    }
    // Business refusals: code 2 with a message.
    expect((await post('/system/shortcut', { ...base, name: 'ok', action: pause, expires_at: h.clock.now - 1 }, 'zh-CN')).body).toMatchObject({ code: 2, msg: '有效期须晚于当前时间' });
    expect((await post('/system/shortcut', { ...base, id: 99_999, name: 'ok', action: pause })).body).toMatchObject({ code: 2, msg: 'No such shortcut' });
    expect((await post('/system/shortcut/test', { id: 99_999 }, 'zh-CN')).body).toMatchObject({ code: 2, msg: '快捷操作不存在' });
    expect(JSON.stringify(getSetting(h.console.ctx.db, 'shortcuts'))).toBe(before);
    // Names are unique, whatever their case.
    await add({ name: 'Unique one', action: pause as ShortcutInput['action'] });
    expect((await post('/system/shortcut', { ...base, name: 'UNIQUE ONE', action: pause })).body).toMatchObject({ code: 2, msg: 'A shortcut with this name exists already' });
  });

  it('the page shows names as text, never as markup', async () => {
    const { link } = await add({ name: '<img src=x onerror=alert(1)>', action: { operation: 'resume_protection' } });
    const page = (await open(link)).body;
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page).not.toContain('<img');
    expect(page).not.toContain('<script');
  });

  it('while the licence is not valid, links say so (503) and run nothing', async () => {
    const { link } = await add({ action: { operation: 'restart_panel' } });
    const restarts = h.executed.length;
    h.console.ctx.db.prepare('UPDATE registration SET valid = 0').run();
    try {
      const page = await open(link, 'en-US');
      expect(page.statusCode).toBe(503);
      expect(page.body).toContain('The software is not registered yet, please register first');
      expect((await run(link)).statusCode).toBe(503);
    } finally {
      h.console.ctx.db.prepare('UPDATE registration SET valid = 1').run();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(h.executed.length).toBe(restarts);
    expect((await list()).rows.find((r) => r.action && (r.action as { operation: string }).operation === 'restart_panel' && r.uses === 0)).toBeDefined();
  });

  it('refuses malformed and wrongly typed bodies on every shortcut route and writes nothing', async () => {
    const before = JSON.stringify(getSetting(h.console.ctx.db, 'shortcuts'));
    const urls = ['/system/shortcut', '/system/shortcut/reissue', '/system/shortcut/delete', '/system/shortcut/test', '/system/shortcut/send'];
    const malformed: Array<[string, string]> = [
      ['{"name": ', 'application/json'], ['\u0000\u0001', 'application/octet-stream'], ['name=x', 'application/x-www-form-urlencoded'],
      ['['.repeat(5000) + ']'.repeat(5000), 'application/json'], ['{"__proto__": {"enabled": true}}', 'application/json'],
    ];
    for (const url of urls) {
      for (const [payload, contentType] of malformed) {
        const res = await h.app.inject({ method: 'POST', url: `/magapi${url}`, payload, headers: { ...auth(token), 'content-type': contentType } });
        expect(res.statusCode, `${url} ${payload.slice(0, 20)}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode).toBeLessThan(500);
      }
      for (const payload of [[], 'text', 42, {}, { id: '1' }, { ids: 'all' }, { id: -1 }, { name: ['x'], action: 'pause_protection' }]) {
        const res = await post(url, payload);
        expect(res.status, `${url} ${JSON.stringify(payload)}`).toBeLessThan(500);
        expect(res.body.code, `${url} ${JSON.stringify(payload)}`).not.toBe(0);
      }
    }
    expect(JSON.stringify(getSetting(h.console.ctx.db, 'shortcuts'))).toBe(before);
  });

  it('is for system settings only, and the link pages are rate limited per IP', async () => {
    const tech = await h.addUser('technician');
    expect((await h.app.inject({ url: '/magapi/system/shortcut', headers: auth(tech.token) })).statusCode).toBe(403);
    expect((await h.app.inject({ method: 'POST', url: '/magapi/system/shortcut', headers: auth(tech.token), payload: { ...base, name: 'x', action: { operation: 'resume_protection' } } })).statusCode).toBe(403);
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) statuses.push((await open(`/shortcut/${'B'.repeat(43)}`, 'en-US', '192.0.2.200')).statusCode);
    expect(statuses.slice(0, 30).every((s) => s === 404)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Another address is not slowed down by it.
    expect((await open(`/shortcut/${'B'.repeat(43)}`, 'en-US', '192.0.2.201')).statusCode).toBe(404);
  });
});

describe('shortcut links while the protection service is away', () => {
  it('says the run failed, keeps the use, and the link still works later', async () => {
    const away = await startHarness({ agent: false });
    try {
      const admin = await away.register();
      const adminToken = await away.login(admin.username, admin.password);
      const res = await away.app.inject({
        method: 'POST', url: '/magapi/system/shortcut', headers: auth(adminToken),
        payload: { ...base, name: 'Unblock', max_uses: 1, action: { operation: 'unblock_ip', ip: '203.0.113.5' } },
      });
      const link = (res.json() as { data: { link: string } }).data.link;
      const done = await away.app.inject({ method: 'POST', url: link, headers: { 'accept-language': 'en-US' } });
      expect(done.statusCode).toBe(200);
      expect(done.body).toContain('The operation failed: ');
      expect(getSetting(away.console.ctx.db, 'shortcuts')[0]).toMatchObject({ uses: 0 });
      expect((await away.app.inject({ url: link })).statusCode).toBe(200);
    } finally {
      await away.close();
    }
  });
});

describe('sending a link through the notification service', () => {
  it('mails a new link (the old one dies), says when no method is set, and keeps the link when sending fails', async () => {
    const smtp = await startSmtpSink({ user: 'alerts@example.com', password: 'smtp-Pa55' });
    try {
      const { id, link } = await add({ name: 'Phone pause', action: { operation: 'pause_protection', minutes: 15 } });
      const origin = 'https://panel.example.com:6688';
      expect((await post('/system/shortcut/send', { id, origin })).body).toMatchObject({ code: 2, msg: 'Notification method not set' });

      const alerts: AlertSettingsInput = {
        ...structuredClone(defaultAlertSettings), enabled: true, methods: ['email'], interval: 0, lang: 'en-US',
        email: { host: '127.0.0.1', port: smtp.port, security: 'none', user: 'alerts@example.com', password: 'smtp-Pa55', from: 'rampart@example.com', recipients: ['ops@example.com'] },
      };
      expect((await post('/system/alerts', alerts)).body.code).toBe(0);
      const bad = await post('/system/shortcut/send', { id, origin: 'javascript:alert(1)' }, 'zh-CN');
      expect(bad).toMatchObject({ status: 400, body: { msg: '控制台地址无效', data: { field: 'origin' } } });

      const arrived = smtp.next();
      const sent = await post('/system/shortcut/send', { id, origin });
      expect(sent.body).toMatchObject({ code: 0, msg: 'A new link went out by 1 notification method(s); the old link no longer works', data: { sent: 1, failed: 0 } });
      const mail = await arrived;
      expect(mail.to).toEqual(['ops@example.com']);
      expect(mail.subject).toMatch(/Shortcut link: Phone pause$/);
      expect(mail.text).toContain('pause protection for 15 minutes');
      const url = /https:\/\/panel\.example\.com:6688(\/shortcut\/[A-Za-z0-9_-]{43})/.exec(mail.text)?.[1];
      expect(url).toBeDefined();
      expect((await open(link)).statusCode).toBe(404);
      expect((await open(url!)).body).toContain('Pause protection for 15 minutes?');

      // The mail server refuses: nothing went out, and the link that was sent still works.
      expect((await post('/system/alerts', { ...alerts, email: { ...alerts.email, password: 'wrong' } })).body.code).toBe(0);
      const failed = await post('/system/shortcut/send', { id, origin });
      expect(failed.body.code).toBe(2);
      expect(failed.body.msg).toMatch(/^Sending failed, the current link still works: email: /);
      expect((await open(url!)).statusCode).toBe(200);
    } finally {
      await smtp.close();
    }
  });
});
