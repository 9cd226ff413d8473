import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultLogSettings, type LogRow } from '@rampart/contracts';
import { auth, startHarness, type Harness } from './support/harness.ts';

let h: Harness;
let admin: { username: string; password: string };
let token: string;

const day = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterAll(() => h.close());

async function get(url: string, lang = 'zh-CN', who = token) {
  const res = await h.app.inject({ method: 'GET', url: `/magapi${url}`, headers: { ...auth(who), 'accept-language': lang } });
  return { status: res.statusCode, body: res.json(), raw: res };
}

async function post(url: string, payload?: unknown, lang = 'zh-CN', who = token) {
  const res = await h.app.inject({ method: 'POST', url: `/magapi${url}`, headers: { ...auth(who), 'accept-language': lang }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: res.json() };
}

/** Pushes the console's queued events to the agent so the next read sees them. */
async function settle() {
  await h.console.ctx.events.flush();
}

async function logRows(query: string, lang = 'zh-CN'): Promise<{ list: LogRow[]; more: boolean }> {
  await settle();
  const { body } = await get(`/log/system?${query}`, lang);
  expect(body.code, JSON.stringify(body)).toBe(0);
  return body.data;
}

async function appendEvents(events: object[]) {
  await h.agentClient.call('events.append', { events: events as never });
}

describe('event log', () => {
  beforeEach(async () => {
    await post('/system/log', { ...defaultLogSettings, mode: 'full' });
  });

  it('records an administrator action with account, IP and outcome, in the reader\'s language', async () => {
    await post('/system/log', { ...defaultLogSettings, mode: 'full', keep_days: 45 });
    const zh = await logRows('period=today&keyword=system.log_settings');
    const row = zh.list.find((r) => r.content.includes('保留天数：90 → 45'));
    expect(row).toBeDefined();
    expect(row).toMatchObject({ account: admin.username, ip: '127.0.0.1', module: 'system', level: 'info', source: 'console' });
    expect(row!.content).toBe(`${admin.username} 修改了日志设置：保留天数：90 → 45（成功）`);
    const en = await logRows('period=today&keyword=system.log_settings', 'en-US');
    expect(en.list.find((r) => r.id === row!.id)!.content).toBe(`${admin.username} changed the log settings: keep days: 90 → 45 (done)`);
  });

  it('records failed sign-ins and folds repeats from one IP in simple mode', async () => {
    await post('/system/log', { ...defaultLogSettings, mode: 'simple' });
    for (let i = 0; i < 3; i++) {
      await h.app.inject({ method: 'POST', url: '/magapi/login', payload: { username: 'nobody1', password: 'wrong' }, remoteAddress: '203.0.113.9' });
    }
    const simple = await logRows('period=today&ip=203.0.113.9');
    expect(simple.list).toHaveLength(1);
    expect(simple.list[0]).toMatchObject({ account: 'nobody1', level: 'warning', repeats: 3 });

    await post('/system/log', { ...defaultLogSettings, mode: 'full' });
    for (let i = 0; i < 2; i++) {
      await h.app.inject({ method: 'POST', url: '/magapi/login', payload: { username: 'nobody2', password: 'wrong' }, remoteAddress: '203.0.113.10' });
    }
    expect((await logRows('period=today&ip=203.0.113.10')).list).toHaveLength(2);
    // The address's failures are cleared so later tests can sign in from it.
    h.console.ctx.db.prepare('DELETE FROM login_failures').run();
  });

  it('filters by period, module, level, IP and keyword', async () => {
    const now = h.clock.now;
    await appendEvents([
      { time: now - day, kind: 'panel.login_failed', module: 'system', level: 'warning', source: 'test', ip: '198.51.100.1', account: 'yesterday1', params: { account: 'yesterday1' } },
      { time: now - 2 * day, kind: 'panel.login_failed', module: 'system', level: 'warning', source: 'test', ip: '198.51.100.2', account: 'twodays1', params: { account: 'twodays1' } },
      { time: now - 20 * day, kind: 'module.switched', module: 'firewall', level: 'critical', source: 'test', ip: '198.51.100.3', params: { module: 'firewall', status: 0 } },
    ]);
    expect((await logRows('period=yesterday')).list.map((r) => r.account)).toContain('yesterday1');
    expect((await logRows('period=today')).list.map((r) => r.account)).not.toContain('yesterday1');
    expect((await logRows('period=before_yesterday')).list.map((r) => r.account)).toEqual(['twodays1']);
    expect((await logRows('period=7d&ip=198.51.100.3')).list).toHaveLength(0);
    const firewall = await logRows('period=30d&module=firewall&level=critical');
    expect(firewall.list.map((r) => r.ip)).toEqual(['198.51.100.3']);
    expect(firewall.list[0]!.content).toBe('防火墙 已关闭');
    // The keyword matches event words in the reader's language as well as raw fields.
    const byWords = await logRows('period=30d&keyword=turned', 'en-US');
    expect(byWords.list.map((r) => r.ip)).toContain('198.51.100.3');
    const byField = await logRows('period=30d&keyword=twodays');
    expect(byField.list.map((r) => r.account)).toEqual(['twodays1']);
  });

  it('pages newest first with "before" until no more data, losing and repeating nothing', async () => {
    const base = h.clock.now - 60 * day;
    await appendEvents(Array.from({ length: 25 }, (_, i) => ({
      time: base + Math.floor(i / 5), kind: 'panel.login_failed', module: 'cloud', level: 'info', source: 'paging', ip: `192.0.2.${i + 1}`, params: {},
    })));
    const seen: number[] = [];
    let before = '';
    for (;;) {
      const page = await logRows(`period=90d&module=cloud&size=10${before}`);
      seen.push(...page.list.map((r) => r.id));
      if (!page.more) break;
      before = `&before=${page.list.at(-1)!.id}`;
    }
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
  });

  it('answers the page options and store figures', async () => {
    const { body } = await get('/log/system/base');
    expect(body.data.periods).toEqual(['today', 'yesterday', 'before_yesterday', '7d', '30d', '90d']);
    expect(body.data.modules).toContain('firewall');
    expect(body.data.events).toBeGreaterThan(0);
    expect(body.data.bytes).toBeGreaterThan(0);
  });

  it('refuses bad filters with a localized message naming the field', async () => {
    const bad = await get('/log/system?period=forever', 'en-US');
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('The period is not valid');
    expect(bad.body.data.field).toBe('period');
    const badIp = await get('/log/system?ip=999.1.1.1');
    expect(badIp.body.msg).toBe('请输入有效的 IPv4 或 IPv6 地址');
  });
});

describe('log download', () => {
  it('packs the filtered log, then serves it as a gzip CSV in the reader\'s language', async () => {
    await appendEvents([{ kind: 'panel.login_failed', module: 'system', level: 'warning', source: 'dl', ip: '192.0.2.200', account: 'x,"y"', params: { account: 'x,"y"' }, detail: '=cmd|calc' }]);
    const start = await get('/log/system/download?period=today&ip=192.0.2.200', 'en-US');
    expect(start.body.data.state).toBe('packing');
    let job = start.body.data;
    for (let i = 0; i < 50 && job.state === 'packing'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      job = (await get(`/log/system/download?job=${job.job}`)).body.data;
    }
    expect(job).toMatchObject({ state: 'ready', rows: 1 });
    expect(job.expires_at - h.clock.now).toBe(24 * 60 * 60 * 1000);
    const file = await h.app.inject({ method: 'GET', url: `/magapi/log/archive?file=${job.file}`, headers: auth(token) });
    expect(file.headers['content-type']).toBe('application/gzip');
    const csv = gunzipSync(file.rawPayload).toString('utf8');
    expect(csv.startsWith('\uFEFFID,Time,Level,Module')).toBe(true);
    const lines = csv.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('"x,""y"""');
    // A cell that a spreadsheet would run as a formula is defused.
    expect(lines[1]).toContain(`'=cmd|calc`);
    // Kept 24 hours, then gone (asked of the service directly: a day later the session has ended too).
    const saved = h.clock.now;
    h.clock.now += 24 * 60 * 60 * 1000 + 1;
    expect(await h.console.ctx.downloads.readyFile(job.file)).toBeUndefined();
    expect(h.console.ctx.downloads.status(job.job)).toBeUndefined();
    h.clock.now = saved;
  });

  it('cancels, and refuses unknown jobs and files', async () => {
    const start = await get('/log/system/download?period=90d');
    const cancel = await post(`/log/system/download/cancel?job=${start.body.data.job}`);
    expect(cancel.body.code).toBe(0);
    const status = await get(`/log/system/download?job=${start.body.data.job}`);
    expect(status.body.data.state).toBe('cancelled');
    expect((await get('/log/system/download?job=0123456789abcdef')).body.code).toBe(2);
    expect((await get('/log/archive?file=rampart-log-0123456789abcdef.csv.gz')).body.code).toBe(2);
    expect((await get('/log/archive?file=../../etc/passwd')).status).toBe(400);
  });
});

describe('notices', () => {
  it('lists, reads, marks read and deletes, with the unread count following', async () => {
    await post('/log/notice/delete?ids=all');
    for (const days of [3, 5]) await h.agentClient.call('notices.raise', { kind: 'licence_expiring', params: { days, date: '2026-12-01' } });
    expect((await get('/log/notice/unread')).body.data.unread).toBe(2);
    const list = (await get('/log/notice?page=1&size=20', 'en-US')).body.data;
    expect(list.count).toBe(2);
    expect(list.list[0].title).toBe('Licence about to expire');
    const info = (await get(`/log/notice/info?id=${list.list[0].id}`, 'en-US')).body.data;
    expect(info.content).toContain('expires in 5 days');
    expect((await get('/log/notice/unread')).body.data.unread).toBe(1);
    await post(`/log/notice/readed?ids=${list.list[1].id}`);
    expect((await get('/log/notice/unread')).body.data.unread).toBe(0);
    await post(`/log/notice/delete?ids=${list.list[1].id}`);
    expect((await get('/log/notice')).body.data.count).toBe(1);
    await post('/log/notice/delete?ids=all');
    expect((await get('/log/notice')).body.data).toEqual({ count: 0, list: null });
    expect((await post('/log/notice/readed?ids=abc')).status).toBe(400);
  });

  it('raises a notice when a module is turned off, and when the licence is about to expire', async () => {
    await post('/log/notice/delete?ids=all');
    await post('/module_switch', { module: 'firewall', status: 0 });
    await new Promise((r) => setTimeout(r, 100));
    const titles = (await get('/log/notice', 'en-US')).body.data.list.map((n: { title: string }) => n.title);
    expect(titles).toContain('Protection module turned off');

    const { checkLicenceExpiry } = await import('../src/services/licence-watch.ts');
    const reg = h.console.ctx.db.prepare('SELECT expires_at FROM registration').get() as { expires_at: number };
    const saved = h.clock.now;
    h.clock.now = reg.expires_at - 3 * day;
    expect(await checkLicenceExpiry(h.console.ctx)).toBe(true);
    expect(await checkLicenceExpiry(h.console.ctx)).toBe(false); // once a day
    h.clock.now = saved;
  });
});

describe('request snapshots', () => {
  it('lists with previews, downloads one whole, and clears with a record of who did it', async () => {
    await h.agentClient.call('photos.append', {
      photos: [{ site: 'shop.test', ip: '192.0.2.50', method: 'POST', url: '/login.php?id=1', headers: 'Host: shop.test\r\nUser-Agent: sqlmap', post_data: `user=${'a'.repeat(1000)}' OR 1=1--`, kind: 'waf.sqli' }],
    });
    const list = (await get('/log/photo?period=today')).body.data;
    expect(list.list).toHaveLength(1);
    expect(list.list[0].post_data.length).toBeLessThanOrEqual(300);
    expect((await get('/log/photo/base')).body.data.count).toBe(1);
    const file = await h.app.inject({ method: 'GET', url: `/magapi/log/photo/download?id=${list.list[0].id}`, headers: auth(token) });
    expect(file.body.startsWith('POST /login.php?id=1\r\nHost: shop.test')).toBe(true);
    expect(file.body.endsWith(`' OR 1=1--`)).toBe(true);
    const cleared = await post('/log/photo', undefined, 'en-US');
    expect(cleared.body.msg).toBe('Cleared 1 request snapshots');
    expect((await get('/log/photo/base')).body.data.count).toBe(0);
    expect((await logRows('period=today&keyword=snapshot', 'en-US')).list[0]!.content).toContain('cleared the request snapshots (1)');
  });
});

describe('logging settings and backup rules', () => {
  it('saves settings, and refuses bad ones on the field without saving', async () => {
    const good = { ...defaultLogSettings, keep_days: 120, syslog: { ...defaultLogSettings.syslog, enabled: true, servers: [{ host: 'log.example.net', port: 1514, transport: 'tcp' }] } };
    expect((await post('/system/log', good)).body.code).toBe(0);
    for (const [bad, field, msg] of [
      [{ ...good, keep_days: 10 }, 'keep_days', '日志保留天数须为 30-3650 的整数'],
      [{ ...good, syslog: { ...good.syslog, servers: [{ host: 'bad host!', port: 514, transport: 'udp' }] } }, 'syslog.servers.0.host', '请输入有效的服务器地址（IP 或域名）'],
      [{ ...good, syslog: { ...good.syslog, servers: [] } }, 'syslog.servers', '开启 Syslog 转发时请至少添加一个服务器'],
      [{ ...good, syslog: { ...good.syslog, servers: [good.syslog.servers[0], good.syslog.servers[0]] } }, 'syslog.servers', '存在重复项'],
    ] as const) {
      const res = await post('/system/log', bad);
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe(msg);
      expect(res.body.data.field).toBe(field);
    }
    expect((await get('/system/log')).body.data).toEqual(good);
    await post('/system/log', defaultLogSettings);
  });

  it('keeps backup secrets sealed, never shows them, and keeps them when left blank', async () => {
    const rule = { enabled: true, type: 'sftp', bucket: '', domain: 'backup.example.net', ip: '', port: 22, username: 'logs', password: 'S3cret-pass', access_id: '', access_secret: '', save_path: '/srv/logs', remark: 'offsite' };
    expect((await post('/system/log_backup', { rules: [rule] })).body.code).toBe(0);
    const shown = (await get('/system/log_backup')).body.data.rules;
    expect(shown[0]).toMatchObject({ id: 1, has_password: true, username: 'logs' });
    expect(JSON.stringify(shown)).not.toContain('S3cret-pass');
    const stored = readFileSync(join(h.dir, 'agent', 'logging.json'), 'utf8');
    expect(stored).not.toContain('S3cret-pass');
    // Saved again with a blank password: the stored one stays.
    await post('/system/log_backup', { rules: [{ ...rule, id: 1, password: '', remark: 'renamed' }] });
    const again = (await get('/system/log_backup')).body.data.rules[0];
    expect(again).toMatchObject({ remark: 'renamed', has_password: true });

    const dup = await post('/system/log_backup', { rules: [rule, { ...rule, save_path: 'srv/logs/' }] });
    expect(dup.status).toBe(400);
    expect(dup.body.msg).toBe('存在重复项');
    const upper = await post('/system/log_backup', { rules: [{ ...rule, type: 's3', bucket: 'MyLogs', access_id: 'AK' }] }, 'en-US');
    expect(upper.body.msg).toBe('Bucket names are 3-63 lowercase letters, digits, dots or hyphens');
    expect(upper.body.data.field).toBe('rules.0.bucket');
    expect((await get('/system/log_backup')).body.data.rules).toHaveLength(1);
    await post('/system/log_backup', { rules: [] });
  });
});

describe('who may read the logs', () => {
  it('lets an auditor read and export but not clear or change settings', async () => {
    const auditor = await h.addUser('auditor', 'auditor9');
    expect((await get('/log/system?period=today', 'zh-CN', auditor.token)).body.code).toBe(0);
    expect((await get('/log/photo', 'zh-CN', auditor.token)).body.code).toBe(0);
    expect((await post('/log/photo', undefined, 'zh-CN', auditor.token)).status).toBe(403);
    expect((await get('/system/log', 'zh-CN', auditor.token)).status).toBe(403);
    // The refused attempt is on the record.
    const refused = await logRows('period=today&keyword=auditor9');
    expect(refused.list.some((r) => r.content === 'auditor9 清空了请求快照（被拒绝）')).toBe(true);
  });
});

describe('while the agent is away', () => {
  it('the log calls answer that the protection service is not connected, never a 500', async () => {
    const away = await startHarness({ agent: false });
    try {
      const admin2 = await away.register();
      const t = await away.login(admin2.username, admin2.password);
      for (const [method, url] of [['GET', '/log/system'], ['GET', '/log/notice'], ['GET', '/system/log'], ['POST', '/log/photo']] as const) {
        const res = await away.app.inject({ method, url: `/magapi${url}`, headers: { ...auth(t), 'accept-language': 'en-US' } });
        expect(res.statusCode, url).toBe(200);
        expect(res.json(), url).toMatchObject({ code: 2, msg: 'The protection service is not connected' });
      }
    } finally {
      await away.close();
    }
  });
});
