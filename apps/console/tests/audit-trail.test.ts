import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAlertSettings, defaultLogSettings, localDateTime, type EventRecord, type Language, type LogRow } from '@rampart/contracts';
import { setSetting } from '../src/db/settings.ts';
import { portalSettingDefs } from '../src/db/settings-portal.ts';
import { auditSpecs } from '../src/http/audit-actions.ts';
import { routeKey, selfRecordingRoutes } from '../src/http/audit-trail.ts';
import { portalRuntime } from '../src/portal/runtime.ts';
import { auth, startHarness, type Harness } from './support/harness.ts';

/*
 * The event log says what an administrator changed (issue 27): each kind of call goes through the
 * real console and a real agent, and the stored event is checked as data (action key, target,
 * changes) and as the log shows it in both languages.
 */

let h: Harness;
let admin: { username: string; password: string };
let token: string;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterAll(() => h.close());

async function post(url: string, payload?: unknown, lang: Language = 'zh-CN') {
  const res = await h.app.inject({
    method: 'POST', url: `/magapi${url}`, headers: { ...auth(token), 'accept-language': lang }, ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: res.statusCode, body: res.json() };
}

/** The panel.action events stored since `after` (an event id), oldest first. */
async function actionsAfter(after: number): Promise<EventRecord[]> {
  await h.console.ctx.events.flush();
  const page = await h.agentClient.call('events.query', { limit: 500 });
  return page.list.filter((e) => e.kind === 'panel.action' && e.id > after).reverse();
}

async function lastId(): Promise<number> {
  await h.console.ctx.events.flush();
  return (await h.agentClient.call('events.query', { limit: 1 })).list[0]?.id ?? 0;
}

/** The one action a call stored, and how the log shows it in Chinese and English. */
async function recorded(call: () => Promise<unknown>): Promise<{ event: EventRecord; zh: string; en: string }> {
  const before = await lastId();
  await call();
  const events = await actionsAfter(before);
  expect(events, JSON.stringify(events)).toHaveLength(1);
  const event = events[0]!;
  const shown = async (lang: Language) => {
    const res = await h.app.inject({
      method: 'GET', url: `/magapi/log/system?period=today&module=${event.module}&size=100`, headers: { ...auth(token), 'accept-language': lang },
    });
    const row = (res.json().data.list as LogRow[]).find((r) => r.id === event.id);
    expect(row, lang).toBeDefined();
    return row!.content;
  };
  return { event, zh: await shown('zh-CN'), en: await shown('en-US') };
}

const changesOf = (event: EventRecord) => JSON.parse(String(event.params['changes'] ?? '[]')) as unknown[];

describe('the event log says what changed', () => {
  it('a firewall rule added: direction, ports, sources, action, priority', async () => {
    const { event, zh, en } = await recorded(() =>
      post('/firewall/rules/add', { direction: 'in', protocol: 'tcp', ports: '80,443', ips: ['203.0.113.7', '198.51.100.0/24'], action: 'deny', priority: 10 }));
    expect(event).toMatchObject({ account: admin.username, module: 'firewall', level: 'info', source: 'console', ip: '127.0.0.1' });
    expect(event.params).toMatchObject({ account: admin.username, action: 'firewall.rule_add', module: 'firewall', result: 'ok' });
    expect(changesOf(event)).toEqual([
      ['direction', 'in'], ['protocol', 'tcp'], ['ports', '80,443'], ['ips', '203.0.113.7, 198.51.100.0/24'], ['action', 'deny'], ['priority', 10], ['enabled', true],
    ]);
    expect(zh).toBe(`${admin.username} 添加了防火墙规则：方向：入站；协议：TCP；端口：80,443；来源 IP：203.0.113.7, 198.51.100.0/24；动作：拒绝；优先级：10；启用：是（成功）`);
    expect(en).toBe(`${admin.username} added a firewall rule: direction: inbound; protocol: TCP; ports: 80,443; sources: 203.0.113.7, 198.51.100.0/24; action: deny; priority: 10; enabled: yes (done)`);
    expect(zh + en).not.toContain('/magapi');
    // The keyword filter finds it by the words the reader sees.
    for (const [lang, words] of [['zh-CN', '添加了防火墙规则'], ['en-US', 'added a firewall rule']] as const) {
      const res = await h.app.inject({ method: 'GET', url: `/magapi/log/system?period=today&keyword=${encodeURIComponent(words)}`, headers: { ...auth(token), 'accept-language': lang } });
      expect((res.json().data.list as LogRow[]).map((r) => r.id), lang).toEqual([event.id]);
    }
  });

  it('a list entry added: list, address, validity', async () => {
    const until = h.clock.now + 7 * 24 * 3_600_000;
    const { event, zh, en } = await recorded(() =>
      post('/firewall/lists/add', { list: 'black', addresses: ['198.51.100.23'], remark: 'scanner', expires_at: until }));
    expect(event.params).toMatchObject({ action: 'firewall.list_add', result: 'ok' });
    expect(changesOf(event)).toEqual([['list', 'black'], ['addresses', '198.51.100.23'], ['remark', 'scanner'], ['expires_at', until]]);
    expect(zh).toBe(`${admin.username} 添加了防火墙名单条目：名单：黑名单；地址：198.51.100.23；备注：scanner；有效期至：${localDateTime(until)}（成功）`);
    expect(en).toBe(`${admin.username} added firewall list entries: list: blacklist; addresses: 198.51.100.23; remark: scanner; valid until: ${localDateTime(until)} (done)`);

    const permanent = await recorded(() => post('/firewall/lists/add', { list: 'white', addresses: ['192.0.2.8'] }));
    expect(permanent.zh).toContain('名单：白名单；地址：192.0.2.8；有效期至：永久');
    expect(permanent.en).toContain('list: whitelist; addresses: 192.0.2.8; valid until: permanent');
  });

  it('a setting changed: old → new, unchanged fields left out', async () => {
    await post('/system/log', { ...defaultLogSettings, mode: 'simple', keep_days: 90 });
    const log = await recorded(() => post('/system/log', { ...defaultLogSettings, mode: 'full', keep_days: 45 }));
    expect(log.event.params).toMatchObject({ action: 'system.log_settings', module: 'system', result: 'ok' });
    expect(changesOf(log.event)).toEqual([['mode', 'simple', 'full'], ['keep_days', 90, 45]]);
    expect(log.zh).toBe(`${admin.username} 修改了日志设置：模式：精简 → 完整；保留天数：90 → 45（成功）`);
    expect(log.en).toBe(`${admin.username} changed the log settings: mode: simple → full; keep days: 90 → 45 (done)`);

    const basic = await recorded(() => post('/system/basic', { server_alias: 'web-01', temp_minutes: 720 }));
    expect(changesOf(basic.event)).toEqual([['server_alias', '', 'web-01']]);
    expect(basic.zh).toBe(`${admin.username} 修改了基础设置：服务器别名：（空） → web-01（成功）`);
    expect(basic.en).toBe(`${admin.username} changed the basic settings: server alias: (none) → web-01 (done)`);
  });

  it('a rule edited: the rule named, its changed fields old → new, unchanged ones left out', async () => {
    const list = (await h.agentClient.call('firewall.rules.list', { direction: 'in', offset: 0, limit: 100 })).list;
    const rule = list.find((r) => r.ports === '80,443')!;
    const { id, direction, protocol, ports, ips, areas, action, enabled, remark } = rule;
    const fw = await recorded(() => post('/firewall/rules/edit', { id, direction, protocol, ports, ips, areas, action, enabled, remark, priority: 20 }));
    expect(fw.event.params).toMatchObject({ action: 'firewall.rule_edit', target: String(id), result: 'ok' });
    expect(changesOf(fw.event)).toEqual([['priority', 10, 20]]);
    expect(fw.zh).toBe(`${admin.username} 修改了防火墙规则 #${id}：优先级：10 → 20（成功）`);
    expect(fw.en).toBe(`${admin.username} edited firewall rule #${id}: priority: 10 → 20 (done)`);

    await post('/process/rules/add', { rule: { process: '/usr/local/bin/audit-trail-tool', deny_start: true, remark: 'first' } });
    const stored = (await h.agentClient.call('process.rules.list', { offset: 0, limit: 100 })).list.find((r) => r.process === '/usr/local/bin/audit-trail-tool')!;
    const { state: _state, net_state: _net, created_at: _created, updated_at: _updated, ...fields } = stored as typeof stored & { created_at?: number; updated_at?: number };
    const proc = await recorded(() => post('/process/rules/edit', { rule: { ...fields, deny_tcp: true, remark: 'second' } }));
    expect(proc.event.params).toMatchObject({ action: 'process.rule_edit', target: `#${stored.id} /usr/local/bin/audit-trail-tool`, result: 'ok' });
    expect(changesOf(proc.event)).toEqual([['rule.deny_tcp', false, true], ['rule.remark', 'first', 'second']]);
    expect(proc.en).toMatch(new RegExp(`^${admin.username} edited process protection rule #${stored.id} /usr/local/bin/audit-trail-tool: .*: no → yes; .*: first → second \\(done\\)$`));
    expect(proc.zh).toContain('：first → second（成功）');
  });

  it('a delete: which rules; a refused call says so', async () => {
    const list = (await h.agentClient.call('firewall.rules.list', { direction: 'in', offset: 0, limit: 100 })).list;
    const id = list.find((r) => r.ports === '80,443')!.id;
    const { event, zh, en } = await recorded(() => post('/firewall/rules/delete', { ids: [id] }));
    expect(event.params).toMatchObject({ action: 'firewall.rule_delete', result: 'ok', changes: JSON.stringify([['ids', String(id)]]) });
    expect(zh).toBe(`${admin.username} 删除了防火墙规则：编号：${id}（成功）`);
    expect(en).toBe(`${admin.username} deleted firewall rules: ids: ${id} (done)`);

    const auditor = await h.addUser('auditor', 'auditor1');
    const before = await lastId();
    const res = await h.app.inject({ method: 'POST', url: '/magapi/firewall/rules/delete', headers: auth(auditor.token), payload: { ids: [id] } });
    expect(res.statusCode).toBe(403);
    const [refused] = await actionsAfter(before);
    expect(refused).toMatchObject({ account: 'auditor1', level: 'warning', params: { action: 'firewall.rule_delete', result: 'refused' } });
  });

  it('an account edited: the account by name and its fields old → new; the password only as changed', async () => {
    const added = await recorded(() => post('/system/user', { username: 'night_ops', password: 'Night-Pass-42', role: 'technician', remark: '' }));
    expect(added.event.params).toMatchObject({ action: 'system.user_add', target: 'night_ops' });
    expect(added.zh).toBe(`${admin.username} 添加了面板账号 night_ops：密码：已修改（不显示）；角色：技术员；状态：启用（成功）`);
    const uid = (h.console.ctx.db.prepare("SELECT id FROM users WHERE username = 'night_ops'").get() as { id: number }).id;
    const edited = await recorded(() => post(`/system/user_edit?uid=${uid}`, { role: 'auditor', password: 'Other-Pass-43' }));
    expect(edited.event.params).toMatchObject({ action: 'system.user_edit', target: 'night_ops' });
    expect(changesOf(edited.event)).toEqual([['password'], ['role', 'technician', 'auditor']]);
    expect(edited.en).toBe(`${admin.username} edited panel account night_ops: password: changed (not shown); role: Technician → Auditor (done)`);
    const deleted = await recorded(() => post(`/system/user_delete?uid=${uid}`));
    expect(deleted.en).toBe(`${admin.username} deleted panel account night_ops (done)`);
    for (const e of [added, edited, deleted]) expect(JSON.stringify(e)).not.toMatch(/Night-Pass-42|Other-Pass-43/);
  });
});

describe('secrets are never stored', () => {
  it('changing one\'s password stores no password, old or new', async () => {
    const user = await h.addUser('technician', 'tech_pw', 'First-Pass-1');
    const before = await lastId();
    const res = await h.app.inject({
      method: 'POST', url: '/magapi/setpwd', headers: auth(user.token),
      payload: { username: 'tech_pw', old: 'First-Pass-1', new: 'Second-Pass-2', confirm: 'Second-Pass-2' },
    });
    expect(res.json().code).toBe(0);
    const [event] = await actionsAfter(before);
    expect(event).toMatchObject({ account: 'tech_pw', params: { action: 'self.password', result: 'ok' } });
    expect(changesOf(event!)).toEqual([['old'], ['new'], ['confirm']]);
    expect(JSON.stringify(event)).not.toMatch(/First-Pass-1|Second-Pass-2/);
  });

  it('SMTP, SMS and webhook secrets in the alert settings are shown only as changed', async () => {
    const secrets = ['Smtp-Secret-77', 'Aliyun-Secret-88', 'Gateway-Token-99', 'WecomKey123'];
    const settings = structuredClone(defaultAlertSettings);
    settings.enabled = true;
    settings.methods = ['email'];
    settings.email = { host: '127.0.0.1', port: 25, security: 'none', user: 'alerts@example.com', password: secrets[0]!, from: 'rampart@example.com', recipients: ['ops@example.com'] };
    settings.sms.aliyun.access_key_secret = secrets[1]!;
    settings.sms.http.header_value = secrets[2]!;
    settings.wechat = { webhook: `https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=${secrets[3]}` };
    const { event, zh, en } = await recorded(async () => expect((await post('/system/alerts', settings)).body.code).toBe(0));
    expect(event.params).toMatchObject({ action: 'system.alerts', result: 'ok' });
    const changes = changesOf(event);
    expect(changes).toEqual(expect.arrayContaining([['enabled', false, true], ['email.password'], ['sms.aliyun.access_key_secret'], ['sms.http.header_value'], ['wechat.webhook']]));
    const stored = JSON.stringify(event) + zh + en;
    for (const secret of secrets) expect(stored).not.toContain(secret);
    expect(zh).toContain('密码：已修改（不显示）');
    expect(en).toContain('password: changed (not shown)');
  });
});

describe('secrets are never stored: the panel\'s safe entry', () => {
  it('says the entry changed, never what it is', async () => {
    const view = (await h.app.inject({ method: 'GET', url: '/magapi/system/portal', headers: auth(token) })).json().data;
    const body = {
      port: view.port, safe_entry: '/door-secret-55', domain: view.domain, https: { enabled: false, cert: '', key: '' },
      authorized: view.authorized, login_notice: view.login_notice, login_check_mode: view.login_check_mode,
      login_error_count: view.login_error_count, session_timeout: view.session_timeout, confirm: true,
    };
    const before = await lastId();
    try {
      expect((await post('/system/portal', body)).body.code).toBe(0);
    } finally {
      // Without the entry's cookie the API answers no more: back to no entry before reading the log.
      for (const [key, def] of Object.entries(portalSettingDefs)) setSetting(h.console.ctx.db, key as keyof typeof portalSettingDefs, def.default as never);
      portalRuntime(h.console.ctx).reloadGate();
    }
    const [event] = await actionsAfter(before);
    expect(event?.params).toMatchObject({ action: 'system.portal', result: 'ok' });
    expect(changesOf(event!)).toContainEqual(['safe_entry']);
    expect(changesOf(event!).map((c) => (c as string[])[0])).not.toContain('confirm');
    expect(JSON.stringify(event)).not.toContain('door-secret-55');
  });
});

describe('what is not an action', () => {
  it('a language switch is not recorded', async () => {
    const before = await lastId();
    expect((await post('/system/basic/language', { lang: 'en-US' })).body.code).toBe(0);
    expect((await post('/system/basic/language', { lang: 'zh-CN' })).body.code).toBe(0);
    expect(await actionsAfter(before)).toEqual([]);
  });

  it('every state-changing route says how the log tells it (or records its own event)', () => {
    // Public and terminal routes have no signed-in account; `audit: false` routes record their own event.
    expect(selfRecordingRoutes).toContain('POST /logout');
    const missing = h.console.routes
      .filter((r) => r.method !== 'GET' && r.access.kind !== 'public' && String(r.access.kind) !== 'terminal')
      .map((r) => routeKey(r.method, r.url))
      .filter((key) => !(key in auditSpecs) && !selfRecordingRoutes.has(key));
    expect(missing).toEqual([]);
  });

  it('an old record (a raw call) and an unknown action read as a change of their module, never as a URL', async () => {
    await h.agentClient.call('events.append', {
      events: [
        { kind: 'panel.action', module: 'firewall', level: 'info', source: 'console', account: 'old_admin', ip: '127.0.0.1', params: { account: 'old_admin', action: 'POST /magapi/firewall/rules/add', result: 'ok' } },
        { kind: 'panel.action', module: 'website', level: 'info', source: 'console', account: 'new_admin', ip: '127.0.0.1', params: { account: 'new_admin', action: 'POST /website/future', module: 'website', result: 'failed' } },
      ],
    });
    const read = async (lang: Language) => {
      const res = await h.app.inject({ method: 'GET', url: '/magapi/log/system?period=today&keyword=_admin&size=100', headers: { ...auth(token), 'accept-language': lang } });
      return (res.json().data.list as LogRow[]).map((r) => r.content).sort();
    };
    expect(await read('zh-CN')).toEqual(['new_admin 修改了网站防护设置（失败）', 'old_admin 修改了防火墙设置（成功）']);
    expect(await read('en-US')).toEqual(['new_admin changed Website protection settings (failed)', 'old_admin changed Firewall settings (done)']);
  });
});
