import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAlertSettings, defaultWebsiteSettings, gatewayConfigSchema, gatewayTimedCommandSchema, translate, type GatewayEventRecord } from '@rampart/contracts';
import { createAlertDispatcher } from '../src/services/alert-dispatcher.ts';
import { createGatewayPoller } from '../src/website/gateway-events.ts';
import { timedCommandLines } from '../src/website/gateway-link.ts';
import { magapi, startHarness, type Harness } from './support/harness.ts';
import { startFakeGateway, type FakeGateway } from './support/website-fake-gateway.ts';

/*
 * What the console does with the gateway's reports: drained events land in the event log (words in
 * both languages), snapshots in the photo log, interceptions and password grants in the console's
 * lists, alerts as notices; a change of a list by hand goes to the gateway as `timed`. The admin
 * socket here is a stand-in that answers as the gateway's protocol says (support/
 * website-fake-gateway.ts), because the gateway is built in parallel; the agent and the panel
 * database are real.
 */

let h: Harness;
let token: string;
let fake: FakeGateway;
let siteId: number;

const call = (method: 'GET' | 'POST', url: string, payload?: unknown, lang: 'en-US' | 'zh-CN' = 'en-US') => magapi(h.app, method, url, { token, payload, lang });
const drain = () => h.console.website.poller.drainOnce();

beforeAll(async () => {
  h = await startHarness();
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
  fake = await startFakeGateway(join(h.dir, 'run', 'gateway.sock'));
  expect((await call('POST', '/module_switch', { module: 'website', status: 1 })).body.code).toBe(0);
  const added = await call('POST', '/website/server', {
    name: 'Shop', status: 'on', running: true, listen: [{ address: '127.0.0.1', port: 18381, tls: false }], server_names: [], upstreams: ['http://127.0.0.1:18382'], tls_cert: '', tls_key: null, trusted_proxies: [],
  });
  siteId = added.body.data.id;
  const base = { ...defaultWebsiteSettings.base, alert: { enabled: true, area: 'all' as const, methods: ['email' as const] } };
  expect((await call('POST', '/website/base', base)).body.code).toBe(0);
});
afterAll(async () => {
  await fake.close();
  await h.close();
});

const event = (change: Partial<GatewayEventRecord>): GatewayEventRecord => ({
  type: 'block', site_id: `site-${siteId}`, incident_id: 'inc-1', at: h.clock.now, client_ip: '203.0.113.9', method: 'GET', target: '/search?q=1%27%20OR%201=1',
  host: 'shop.example.com', rule: 'sqli.tautology', kind: 'sqli', area: null, alert: false, ...change,
});

const logRows = async (lang: 'en-US' | 'zh-CN') => {
  await h.console.ctx.events.flush();
  const res = await call('GET', '/log/system?module=website&size=100', undefined, lang);
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  return res.body.data.list as { content: string; source: string; ip: string; level: string; detail: string }[];
};

describe('drained gateway events', () => {
  it('become events in both languages, snapshots, list entries and an alert notice', async () => {
    const minute = 60_000;
    fake.queue.push(JSON.stringify({
      ok: true,
      dropped: 3,
      more: false,
      events: [
        event({ alert: true, location: 'query', name: 'q', evidence: "1' OR 1=1", snapshot: { headers: 'GET /search?q=1%27%20OR%201=1 HTTP/1.1\r\nhost: shop.example.com\r\n', body: '' } }),
        event({ incident_id: 'inc-2', client_ip: '198.51.100.4', rule: 'lists.ip_black', kind: 'policy', target: '/' }),
        event({ type: 'challenge', incident_id: 'inc-3', client_ip: '198.51.100.5', rule: 'protect.cc.redirect', kind: 'policy', target: '/' }),
        event({ type: 'record', incident_id: 'inc-4', client_ip: '198.51.100.6', rule: 'sql.keywords.record', kind: 'policy', target: '/post', method: 'POST' }),
        // A detector's record is named by its attack kind, not by its rule id.
        event({ type: 'record', incident_id: 'inc-7', client_ip: '198.51.100.9', rule: 'orm.secret_lookup', kind: 'sqli', target: '/users?owner__api_token__gt=a' }),
        event({
          type: 'intercept', incident_id: 'inc-5', client_ip: '198.51.100.7', rule: 'protect.cc', kind: 'policy', target: '/',
          intercept: { ip: '198.51.100.7', reason: 'cc', detail: '> 120 / 60 s', created_at: h.clock.now, expires_at: h.clock.now + 10 * minute },
        }),
        event({
          type: 'authorize', incident_id: 'inc-6', client_ip: '198.51.100.8', rule: 'protect.authorization', kind: 'policy', target: '/',
          author: { ip: '198.51.100.8', reason: 'password', detail: '', created_at: h.clock.now, expires_at: h.clock.now + 60 * minute },
        }),
      ],
    }));
    expect(await drain()).toEqual({ state: 'drained', events: 7, rejected: 0, dropped: 3, more: false });
    // Nothing more: a second drain is empty and quiet.
    expect(await drain()).toEqual({ state: 'drained', events: 0, rejected: 0, dropped: 0, more: false });

    const en = (await logRows('en-US')).map((r) => r.content);
    expect(en).toEqual(expect.arrayContaining([
      '203.0.113.9: SQL injection attack on site "Shop" blocked',
      '198.51.100.4: request to site "Shop" blocked by the IP and area blacklist',
      '198.51.100.5: human verification asked on site "Shop" (CC protection (redirect verification))',
      '198.51.100.6: request to site "Shop" matched the record keyword library; recorded, not blocked',
      '198.51.100.9: request to site "Shop" matched SQL injection; recorded, not blocked',
      '198.51.100.7: CC attack; blocked by website protection for 10 minutes',
      '198.51.100.8 gave the authorization password; authorized for 60 minutes',
      'The website gateway\'s event buffer was full: 3 events were not recorded',
    ]));
    const zh = (await logRows('zh-CN')).map((r) => r.content);
    expect(zh).toEqual(expect.arrayContaining([
      '203.0.113.9 对站点「Shop」的SQL 注入攻击已拦截',
      '198.51.100.4 访问站点「Shop」被IP/地区黑名单拦截',
      '198.51.100.5 访问站点「Shop」需通过人机验证（CC 防护（跳转验证））',
      '198.51.100.6 访问站点「Shop」命中关键字记录库，已记录（未拦截）',
      '198.51.100.9 访问站点「Shop」命中SQL 注入，已记录（未拦截）',
      '198.51.100.7 触发CC 攻击，网站防护已拦截 10 分钟',
      '198.51.100.8 通过授权密码验证，授权访问 60 分钟',
      '网站防护网关的事件缓冲区已满，3 条事件未能记录',
    ]));
    const attack = (await logRows('en-US')).find((r) => r.ip === '203.0.113.9')!;
    expect(attack).toMatchObject({ source: 'sqli.tautology', level: 'warning' });
    expect(attack.detail).toContain("GET /search?q=1%27%20OR%201=1\nHost: shop.example.com\nrule sqli.tautology @ query q: 1' OR 1=1");

    // The snapshot, in the photo log.
    const photos = await call('GET', '/log/photo');
    expect(photos.body.data.list).toHaveLength(1);
    expect(photos.body.data.list[0]).toMatchObject({ site: 'Shop', ip: '203.0.113.9', method: 'GET', url: '/search?q=1%27%20OR%201=1', kind: 'website.attack' });

    // The gateway's own interception and password grant, on the console's lists.
    const intercepts = await call('GET', '/website/intercept_list');
    expect(intercepts.body.data.list).toEqual([{ ip: '198.51.100.7', reason: 'cc', detail: '> 120 / 60 s', created_at: h.clock.now, expires_at: h.clock.now + 10 * minute }]);
    expect((await call('GET', '/website/author_list')).body.data.list).toMatchObject([{ ip: '198.51.100.8', reason: 'password' }]);

    // The alert: a notice the alert service sends by the website's methods.
    const notices = await call('GET', '/log/notice');
    const notice = notices.body.data.list.find((n: { title: string }) => n.title === 'Website protection blocked an attack');
    expect(notice, JSON.stringify(notices.body)).toBeTruthy();
    const info = await call('GET', `/log/notice/info?id=${notice.id}`, undefined, 'zh-CN');
    expect(info.body.data.content).toBe('203.0.113.9 对站点「Shop」的请求（GET /search?q=1%27%20OR%201=1）因SQL 注入被拦截。');
    const stored = await h.agentClient.call('notices.get', { id: notice.id, mark_read: false });
    expect(stored?.params['methods']).toBe('email');
  });

  it('ignores and logs a malformed answer, keeps the good events of a mixed one, and the console goes on', async () => {
    const logged: string[] = [];
    const poller = createGatewayPoller(h.console.website.link, { log: (line) => logged.push(line) });
    const answers = ['this is not json', JSON.stringify({ ok: true, events: 'nope', dropped: 0, more: false }), JSON.stringify({ ok: false, reason: 'unknown command events' })];
    for (const answer of answers) {
      fake.queue.push(answer);
      expect((await poller.drainOnce()).state).toBe('invalid');
    }
    expect(logged).toHaveLength(3);
    expect(logged[0]).toContain('gateway events ignored');
    expect(logged[1]).toContain('events');
    // The same reason again is not logged again (a gateway of another build would fill the log).
    fake.queue.push('this is not json');
    await poller.drainOnce();
    expect(logged).toHaveLength(3);

    fake.queue.push(JSON.stringify({ ok: true, dropped: 0, more: false, events: [{ type: 'exploded' }, event({ client_ip: '192.0.2.77', incident_id: 'inc-7' })] }));
    expect(await poller.drainOnce()).toEqual({ state: 'drained', events: 1, rejected: 1, dropped: 0, more: false });
    expect(logged.some((l) => l.includes('gateway event ignored'))).toBe(true);
    expect((await logRows('en-US')).some((r) => r.ip === '192.0.2.77')).toBe(true);
    expect((await call('GET', '/website/server')).body.code).toBe(0);
  });

  it('runs on its timers: drains and checks the policy, holds the drain while the agent is away, stops when told', async () => {
    const poller = createGatewayPoller(h.console.website.link, { drainMs: 20, policyEvery: 1, log: () => {} });
    const waitFor = async (ok: () => boolean) => {
      for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
      return ok();
    };
    const cache = h.console.website.link.agentInputs as unknown as { agent: unknown };
    const realAgent = cache.agent;
    cache.agent = { call: () => Promise.reject(new Error('agent away')) };
    const stop = poller.start();
    try {
      const drains = () => fake.lines.filter((l) => l === 'events').length;
      await new Promise((r) => setTimeout(r, 200));
      const held = drains();
      fake.queue.push(JSON.stringify({ ok: true, dropped: 0, more: false, events: [event({ client_ip: '192.0.2.150', incident_id: 'inc-t' })] }));
      await new Promise((r) => setTimeout(r, 200));
      // At most the one round before the first check found the agent away.
      expect(drains() - held).toBe(0);
      expect(fake.queue).toHaveLength(1);
      cache.agent = realAgent;
      expect(await waitFor(() => fake.queue.length === 0)).toBe(true);
      expect(await waitFor(() => h.console.ctx.events.pending === 0)).toBe(true);
      expect((await logRows('en-US')).some((r) => r.ip === '192.0.2.150')).toBe(true);
    } finally {
      cache.agent = realAgent;
      await stop();
    }
    const after = fake.lines.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.lines.length).toBe(after);
  });

  it('is quiet when no gateway runs', async () => {
    await fake.close();
    try {
      const logged: string[] = [];
      const poller = createGatewayPoller(h.console.website.link, { log: (line) => logged.push(line) });
      expect(await poller.drainOnce()).toEqual({ state: 'not_running' });
      expect(logged).toEqual([]);
      // A change by hand with no gateway: saved, fine.
      const res = await call('POST', '/website/intercept_list', { ips: ['192.0.2.99'], minutes: 5 });
      expect(res.body).toMatchObject({ code: 0, data: { added: 1, gateway: { state: 'not_running' } } });
    } finally {
      fake = await startFakeGateway(join(h.dir, 'run', 'gateway.sock'));
    }
  });
});

describe('alerts', () => {
  it('go by the website alert methods only, of those the alert service has; other notices by all of them', async () => {
    const alerts = structuredClone(defaultAlertSettings);
    Object.assign(alerts, { enabled: true, methods: ['email', 'wechat'], interval: 0, lang: 'en-US' });
    alerts.email = { host: '127.0.0.1', port: 2525, security: 'none', user: '', password: '', from: 'rampart@example.com', recipients: ['ops@example.com'] };
    alerts.wechat = { webhook: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k3y' };
    expect((await call('POST', '/system/alerts', alerts)).body.code).toBe(0);
    const mails: string[] = [];
    const robot: string[] = [];
    const dispatcher = createAlertDispatcher(h.console.ctx, {
      now: () => h.clock.now,
      createTransport: () => ({ sendMail: async (message) => (mails.push(String(message.subject)), { accepted: ['ops@example.com'], rejected: [] }) }),
      fetch: async (_url, init) => (robot.push(init.body ?? ''), { status: 200, text: async () => '{"errcode":0,"errmsg":"ok"}' }),
    });
    await dispatcher.poll();
    fake.queue.push(JSON.stringify({ ok: true, dropped: 0, more: false, events: [event({ client_ip: '203.0.113.50', incident_id: 'inc-a', alert: true })] }));
    expect((await drain()).state).toBe('drained');
    await dispatcher.poll();
    expect(mails).toEqual([expect.stringContaining('Website protection blocked an attack')]);
    expect(robot).toEqual([]);

    await h.agentClient.call('notices.raise', { kind: 'module_off', params: { account: 'admin', module: 'website' } });
    await dispatcher.poll();
    expect(mails).toHaveLength(2);
    expect(robot).toHaveLength(1);
  });
});

describe('lists changed by hand', () => {
  const timedLines = () => fake.lines.filter((l) => l.startsWith('timed ')).map((l) => gatewayTimedCommandSchema.parse(JSON.parse(l.slice('timed '.length))));

  it('sends each addition and removal to the running gateway as `timed`, and writes the file lists', async () => {
    fake.lines.length = 0;
    const added = await call('POST', '/website/intercept_list', { ips: ['192.0.2.44'], minutes: 5, remark: 'by hand' });
    expect(added.body).toMatchObject({ code: 0, data: { added: 1, gateway: { state: 'sent' } } });
    const entry = { ip: '192.0.2.44', reason: 'manual', detail: 'by hand', created_at: h.clock.now, expires_at: h.clock.now + 300_000 };
    expect(timedLines()).toEqual([{ op: 'add', list: 'intercepted', entries: [entry] }]);
    expect(fake.lines.includes('reload')).toBe(false);
    const file = gatewayConfigSchema.parse(JSON.parse(readFileSync(join(h.dir, 'gateway', 'gateway.json'), 'utf8')));
    expect(file.policy!.timed.intercepted).toContainEqual(entry);

    await call('POST', '/website/author_list', { ips: ['192.0.2.45'], minutes: 30 });
    await call('POST', '/website/intercept_list_delete', { ips: ['192.0.2.44'] });
    expect(timedLines().slice(1)).toEqual([
      { op: 'add', list: 'authorized', entries: [{ ip: '192.0.2.45', reason: 'manual', detail: '', created_at: h.clock.now, expires_at: h.clock.now + 1_800_000 }] },
      { op: 'remove', list: 'intercepted', ips: ['192.0.2.44'] },
    ]);
  });

  it('sends a thousand addresses as one line, and cuts the largest changes into lines under the limit', async () => {
    fake.lines.length = 0;
    const ips = Array.from({ length: 1000 }, (_, i) => `10.1.${Math.floor(i / 250)}.${i % 250}`);
    expect((await call('POST', '/website/intercept_list', { ips, minutes: 5, remark: 'a long remark '.repeat(10).trim() })).body.code).toBe(0);
    const sent = timedLines();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.op === 'add' ? sent[0]!.entries.map((e) => e.ip) : []).toEqual(ips);

    const many = Array.from({ length: 10_000 }, (_, i) => `2001:db8::${i.toString(16)}`);
    const lines = timedCommandLines({ op: 'remove', list: 'intercepted', ips: many }, 64 * 1024);
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(64 * 1024);
    expect(lines.flatMap((l) => (JSON.parse(l.slice('timed '.length)) as { ips: string[] }).ips)).toEqual(many);
  });

  it('says in both languages when the running gateway refuses a change; the change is saved', async () => {
    const answer = fake.answer;
    fake.answer = (command) => (command.startsWith('timed ') ? JSON.stringify({ ok: false, reason: 'list full' }) : answer(command));
    try {
      for (const lang of ['en-US', 'zh-CN'] as const) {
        const res = await call('POST', '/website/author_list', { ips: ['192.0.2.46'], minutes: 5 }, lang);
        expect(res.body.code).toBe(1);
        expect(res.body.msg).toBe(translate(lang, 'web_timed_not_applied', { reason: 'list full' }));
      }
      expect((await call('GET', '/website/author_list?keyword=192.0.2.46')).body.data.total).toBe(1);
    } finally {
      fake.answer = answer;
    }
  });
});
