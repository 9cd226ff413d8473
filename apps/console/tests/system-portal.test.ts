import { createServer, type Server } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PortalSaveInput, PortalView } from '@rampart/contracts';
import { setSetting } from '../src/db/settings.ts';
import { portalSettingDefs } from '../src/db/settings-portal.ts';
import { portalRuntime } from '../src/portal/runtime.ts';
import { auth, startHarness, type Harness } from './support/harness.ts';
import { makeCert } from './support/portal-certs.ts';

let h: Harness;
let admin: { username: string; password: string };
let token: string;

const stranger = '203.0.113.5';

beforeAll(async () => {
  h = await startHarness();
  admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterAll(() => h.close());

/** Back to defaults between tests: the gate must not carry one test's entry into the next. */
beforeEach(() => {
  const db = h.console.ctx.db;
  for (const [key, def] of Object.entries(portalSettingDefs)) setSetting(db, key as keyof typeof portalSettingDefs, def.default as never);
  setSetting(db, 'login_check_mode', 'off');
  portalRuntime(h.console.ctx).reloadGate();
  portalRuntime(h.console.ctx).forgetTrusted();
});

async function get(lang = 'en-US') {
  const res = await h.app.inject({ method: 'GET', url: '/magapi/system/portal', headers: { ...auth(token), 'accept-language': lang } });
  return res.json() as { code: number; msg: string; data: PortalView };
}

/** The form as it stands, with changes. */
async function form(changes: Partial<PortalSaveInput> = {}): Promise<PortalSaveInput> {
  const view = (await get()).data;
  return {
    port: view.port, safe_entry: view.safe_entry, domain: view.domain,
    https: { enabled: view.https.enabled, cert: view.https.cert, key: '' },
    authorized: view.authorized, login_notice: view.login_notice, login_check_mode: view.login_check_mode,
    login_error_count: view.login_error_count, session_timeout: view.session_timeout, ...changes,
  };
}

async function save(body: unknown, lang = 'en-US', remoteAddress = '127.0.0.1') {
  const res = await h.app.inject({ method: 'POST', url: '/magapi/system/portal', headers: { ...auth(token), 'accept-language': lang }, payload: body as object, remoteAddress });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test reads of loosely typed answers
  return { status: res.statusCode, body: res.json() as { code: number; msg: string; data: any }, headers: res.headers };
}

describe('portal settings', () => {
  it('reads the defaults: the environment\'s port, no entry, no domain, HTTPS off, every IP allowed', async () => {
    const { code, msg, data } = await get();
    expect(code).toBe(0);
    expect(msg).toBe('');
    expect(data).toMatchObject({
      port: 6688, safe_entry: '', domain: '', https: { enabled: false, cert: '', has_key: false, info: null },
      authorized: { enabled: false, ips: [], areas: [] }, login_notice: false, login_check_mode: 'off',
      address: 'http://localhost:6688/', client_ip: '127.0.0.1',
    });
  });

  it('saves the login policy without moving the panel, in the caller\'s language', async () => {
    const zh = await save(await form({ login_check_mode: 'strict', login_error_count: 0, session_timeout: 0, login_notice: true }), 'zh-CN');
    expect(zh.body).toMatchObject({ code: 0, msg: '保存成功', data: { saved: true, restart: null } });
    expect((await get()).data).toMatchObject({ login_check_mode: 'strict', login_error_count: 0, session_timeout: 0, login_notice: true });
    const en = await save(await form({ login_check_mode: 'loose', login_error_count: 7, session_timeout: 30 }));
    expect(en.body).toMatchObject({ code: 0, msg: 'Saved' });
    expect((await get()).data).toMatchObject({ login_check_mode: 'loose', login_error_count: 7, session_timeout: 30 });
  });

  it('refuses bad input on its field in both languages and saves nothing', async () => {
    const cases: [Partial<PortalSaveInput>, string, RegExp, RegExp][] = [
      [{ port: 80 }, 'port', /1024/, /below 1024/],
      [{ port: 70000 }, 'port', /1024 到 65535/, /1024 to 65535/],
      [{ port: 8080.5 }, 'port', /整数/, /whole number/],
      [{ safe_entry: 'abc' }, 'safe_entry', /6 到 32/, /6 to 32/],
      [{ safe_entry: 'has space!' }, 'safe_entry', /6 到 32/, /6 to 32/],
      [{ safe_entry: 'magapi' }, 'safe_entry', /自用/, /uses itself/],
      [{ domain: 'not a domain' }, 'domain', /有效的域名/, /valid domain/],
      [{ domain: '192.0.2.1' }, 'domain', /有效的域名/, /valid domain/],
      [{ authorized: { enabled: true, ips: ['192.0.2.1', 'nonsense'], areas: [] } }, 'authorized.ips.1', /有效的 IP/, /valid IP/],
      [{ authorized: { enabled: true, ips: ['10.0.0.1/8'], areas: [] } }, 'authorized.ips.0', /有效的 IP/, /valid IP/],
      [{ authorized: { enabled: true, ips: [], areas: ['ZZ'] } }, 'authorized.areas.0', /有效的地区/, /valid area/],
      [{ login_check_mode: 'medium' as never }, 'login_check_mode', /宽松/, /loose/],
      [{ login_error_count: -1 }, 'login_error_count', /0 到 1000/, /0 to 1000/],
      [{ session_timeout: 600000 }, 'session_timeout', /525600/, /525600/],
    ];
    for (const [change, field, zh, en] of cases) {
      const body = await form(change);
      const a = await save(body, 'zh-CN');
      expect(a.status, JSON.stringify(change)).toBe(400);
      expect(a.body.data.field).toBe(field);
      expect(a.body.msg).toMatch(zh);
      const b = await save(body, 'en-US');
      expect(b.body.msg).toMatch(en);
    }
    expect((await save({ ...(await form()), extra: 1 })).status).toBe(400);
    expect((await save('nope')).status).toBe(400);
    expect((await get()).data).toMatchObject({ port: 6688, safe_entry: '', domain: '', authorized: { enabled: false } });
  });

  it('a leading slash on the entry is what people type: it is stored without it', async () => {
    const saved = await save(await form({ safe_entry: '/door-123456', confirm: true }));
    expect(saved.body.code).toBe(0);
    expect(portalRuntime(h.console.ctx).gate.entry).toBe('door-123456');
  });

  it('refuses a port another program holds', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const zh = await save(await form({ port }), 'zh-CN');
      expect(zh.body.code).toBe(2);
      expect(zh.body.msg).toBe(`端口 ${port} 已被其他程序占用，请换一个端口`);
      expect((await save(await form({ port }))).body.msg).toBe(`Port ${port} is in use by another program; choose another port`);
      expect((await get()).data.port).toBe(6688);
    } finally {
      holder.close();
    }
  });

  it('a port change answers where the panel goes and how to tell it is up there', async () => {
    const port = await portFreeNow();
    const saved = await save(await form({ port }));
    expect(saved.body).toMatchObject({ code: 0, data: { saved: true, restart: { target: `http://localhost:${port}/`, probe: `ws://localhost:${port}/ws` } } });
    expect(saved.body.msg).toContain(`http://localhost:${port}/`);
    expect((await get()).data.port).toBe(port);
  });
});

describe('warnings ask twice', () => {
  it('cancelling the safe entry warns and saves nothing until confirmed', async () => {
    expect((await save(await form({ safe_entry: 'door-123456' }))).body.code).toBe(0);
    const cookie = 'rampart_entry=' + portalRuntime(h.console.ctx).gate.entryToken;
    const warned = await h.app.inject({ method: 'POST', url: '/magapi/system/portal', headers: { ...auth(token), cookie, 'accept-language': 'zh-CN' }, payload: { ...(await formWith(cookie, { safe_entry: '' })) } });
    const body = warned.json();
    expect(body.code).toBe(1);
    expect(body.msg).toBe('保存前请确认以下风险：');
    expect(body.data.saved).toBe(false);
    expect(body.data.warnings.map((w: { key: string }) => w.key)).toEqual(['portal_warn_entry_cancel']);
    expect(body.data.warnings[0].msg).toContain('安全入口');
    expect(portalRuntime(h.console.ctx).gate.entry).toBe('door-123456');
    const confirmed = await h.app.inject({ method: 'POST', url: '/magapi/system/portal', headers: { ...auth(token), cookie }, payload: { ...(await formWith(cookie, { safe_entry: '', confirm: true })) } });
    expect(confirmed.json().code).toBe(0);
    expect(portalRuntime(h.console.ctx).gate.entry).toBe('');
  });

  it('binding a domain other than the one in use, and unbinding it, warn', async () => {
    const bind = await save(await form({ domain: 'Panel.Example.com' }));
    expect(bind.body.code).toBe(1);
    expect(bind.body.data.warnings[0]).toMatchObject({ key: 'portal_warn_domain_bind' });
    expect(bind.body.data.warnings[0].msg).toContain('panel.example.com');
    // Bound to the name the administrator is using: nothing to warn about.
    const same = await h.app.inject({ method: 'POST', url: '/magapi/system/portal', headers: { ...auth(token), host: 'panel.example.com:6688' }, payload: await form({ domain: 'panel.example.com' }) });
    expect(same.json().code).toBe(0);
    setSetting(h.console.ctx.db, 'panel_domain', '');
    portalRuntime(h.console.ctx).reloadGate();
    const body = await form();
    setSetting(h.console.ctx.db, 'panel_domain', 'panel.example.com');
    portalRuntime(h.console.ctx).reloadGate();
    const unbind = await h.app.inject({ method: 'POST', url: '/magapi/system/portal', headers: { ...auth(token), host: 'panel.example.com', 'accept-language': 'en-US' }, payload: { ...body, domain: '' } });
    expect(unbind.json().data.warnings.map((w: { key: string }) => w.key)).toEqual(['portal_warn_domain_unbind']);
    expect(unbind.json().data.warnings[0].msg).toMatch(/any name or IP/);
  });

  it('enabling an empty authorized list warns; from an address not on the list, that too', async () => {
    const local = await save(await form({ authorized: { enabled: true, ips: [], areas: [] } }), 'en-US');
    expect(local.body.data.warnings.map((w: { key: string }) => w.key)).toEqual(['portal_warn_authorized_empty']);
    const remote = await save(await form({ authorized: { enabled: true, ips: ['198.51.100.0/24'], areas: [] } }), 'zh-CN', stranger);
    expect(remote.body.code).toBe(1);
    expect(remote.body.data.warnings).toEqual([{ key: 'portal_warn_own_ip', msg: `您当前的 IP ${stranger} 不在授权列表中，保存后您将无法访问面板。` }]);
    const listed = await save(await form({ authorized: { enabled: true, ips: ['198.51.100.0/24', `${stranger}`], areas: [] } }), 'en-US', stranger);
    expect(listed.body.code).toBe(0);
  });

  it('a port the firewall keeps closed warns', async () => {
    await h.app.inject({ method: 'POST', url: '/magapi/module_switch', headers: auth(token), payload: { module: 'firewall', status: 1 } });
    const closed = await portFreeNow();
    const rule = { direction: 'in', protocol: 'tcp', ports: String(closed), ips: ['*'], areas: [], action: 'deny', priority: 1, enabled: true, remark: 'closed' };
    const added = await h.app.inject({ method: 'POST', url: '/magapi/firewall/rules/add', headers: auth(token), payload: rule });
    expect(added.json().code, added.body).not.toBe(2);
    const warned = await save(await form({ port: closed }));
    expect(warned.body.code).toBe(1);
    expect(warned.body.data.warnings).toEqual([{ key: 'portal_warn_port_firewall', msg: expect.stringContaining(String(closed)) }]);
    // Outside the denied port: nothing to say.
    let open = await portFreeNow();
    while (open === closed) open = await portFreeNow();
    expect((await save(await form({ port: open }))).body.code).toBe(0);
  });
});

/** A loopback port free right now (a fixed number may be taken by another test running beside this one). */
async function portFreeNow(): Promise<number> {
  const probe: Server = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The form read through the gate with the entry cookie. */
async function formWith(cookie: string, changes: Partial<PortalSaveInput>) {
  const res = await h.app.inject({ method: 'GET', url: '/magapi/system/portal', headers: { ...auth(token), cookie } });
  const view = res.json().data as PortalView;
  return {
    port: view.port, safe_entry: view.safe_entry, domain: view.domain, https: { enabled: view.https.enabled, cert: view.https.cert, key: '' },
    authorized: view.authorized, login_notice: view.login_notice, login_check_mode: view.login_check_mode,
    login_error_count: view.login_error_count, session_timeout: view.session_timeout, ...changes,
  };
}

describe('HTTPS certificate and key', () => {
  const good = makeCert('panel.example.com', ['panel.example.com', 'www.panel.example.com', '127.0.0.1']);
  const other = makeCert('other.example.com');

  it('shows issuer, names and validity; keeps the key sealed and never sends it back', async () => {
    const saved = await save(await form({ https: { enabled: true, cert: good.cert, key: good.key } }));
    expect(saved.body.code).toBe(0);
    expect(saved.body.data.restart.target).toBe('https://localhost:6688/');
    const view = (await get()).data;
    expect(view.https).toMatchObject({ enabled: true, has_key: true });
    expect(view.https.info).toMatchObject({ issuer: expect.stringContaining('O=Rampart Test CA'), domains: ['panel.example.com', 'www.panel.example.com', '127.0.0.1'] });
    expect(view.https.info!.not_after - view.https.info!.not_before).toBeGreaterThan(29 * 86_400_000);
    const raw = JSON.stringify(await get());
    const keyBody = good.key.split('\n')[1]!;
    expect(raw).not.toContain(keyBody);
    const row = h.console.ctx.db.prepare("SELECT value FROM settings WHERE key = 'panel_https'").get() as { value: string };
    expect(row.value).not.toContain(keyBody);
    expect(row.value).toContain('v1:');
    expect(readFileSync(`${h.dir}/console-secrets.key`).length).toBe(32);
    // A blank key keeps the stored one.
    expect((await save(await form({ https: { enabled: true, cert: good.cert, key: '' } }))).body).toMatchObject({ code: 0, data: { restart: null } });
  });

  it('refuses a key that does not belong to the certificate, in both languages', async () => {
    const body = await form({ https: { enabled: true, cert: good.cert, key: other.key } });
    const zh = await save(body, 'zh-CN');
    expect(zh.status).toBe(400);
    expect(zh.body).toMatchObject({ code: 2, msg: '私钥与证书不匹配，请上传该证书对应的私钥', data: { field: 'https.key' } });
    expect((await save(body, 'en-US')).body.msg).toBe('The private key does not match the certificate; upload the key that belongs to it');
    // A new certificate with the stored (old) key is no pair either.
    await save(await form({ https: { enabled: true, cert: good.cert, key: good.key } }));
    const swapped = await save(await form({ https: { enabled: true, cert: other.cert, key: '' } }));
    expect(swapped.body.data.field).toBe('https.key');
    expect((await get()).data.https.info!.domains[0]).toBe('panel.example.com');
  });

  it('refuses HTTPS without a certificate or key, and text that is no PEM', async () => {
    expect((await save(await form({ https: { enabled: true, cert: '', key: '' } }))).body).toMatchObject({ code: 2, data: { field: 'https.cert' } });
    expect((await save(await form({ https: { enabled: true, cert: good.cert, key: '' } }))).body).toMatchObject({ code: 2, data: { field: 'https.key' } });
    const garbage = await save(await form({ https: { enabled: true, cert: '-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----', key: good.key } }), 'zh-CN');
    expect(garbage.body).toMatchObject({ code: 2, msg: '证书无法解析，请上传 PEM 格式的证书', data: { field: 'https.cert' } });
    const badKey = await save(await form({ https: { enabled: true, cert: good.cert, key: 'not a key' } }));
    expect(badKey.body).toMatchObject({ code: 2, data: { field: 'https.key' } });
    expect((await get()).data.https.enabled).toBe(false);
  });
});

describe('the gate', () => {
  const bare = (res: { statusCode: number; body: string; headers: Record<string, unknown> }) => {
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html');
    expect(res.body).toContain('404 Not Found');
    expect(res.body).not.toMatch(/code|magapi|rampart/i);
    expect(res.headers['content-security-policy']).toBeUndefined();
  };

  it('without the safe entry every path is a bare 404, loopback included; the entry sets an HttpOnly cookie', async () => {
    await save(await form({ safe_entry: 'door-123456' }));
    for (const url of ['/', '/magapi/info', '/magapi/system/portal', '/ws', '/help', '/door-12345']) {
      bare(await h.app.inject({ method: 'GET', url, remoteAddress: stranger, headers: auth(token) }));
    }
    bare(await h.app.inject({ method: 'GET', url: '/magapi/info', headers: auth(token) }));
    const entry = await h.app.inject({ method: 'GET', url: '/door-123456', remoteAddress: stranger });
    expect(entry.statusCode).toBe(302);
    expect(entry.headers.location).toBe('/');
    const cookie = String(entry.headers['set-cookie']);
    expect(cookie).toMatch(/^rampart_entry=[\w-]+; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(cookie).not.toContain('door-123456');
    const through = await h.app.inject({ method: 'GET', url: '/magapi/info', remoteAddress: stranger, headers: { ...auth(token), cookie: cookie.split(';')[0]! } });
    expect(through.statusCode).toBe(200);
    bare(await h.app.inject({ method: 'GET', url: '/magapi/info', remoteAddress: stranger, headers: { ...auth(token), cookie: 'rampart_entry=forged' } }));
  });

  it('a safe entry lifted outside the console (rampart portal reset) is taken within seconds, without a save', async () => {
    await save(await form({ safe_entry: 'door-123456' }));
    bare(await h.app.inject({ method: 'GET', url: '/magapi/info', remoteAddress: stranger, headers: auth(token) }));
    setSetting(h.console.ctx.db, 'panel_safe_entry', '');
    await new Promise((resolve) => setTimeout(resolve, 5_200));
    expect((await h.app.inject({ method: 'GET', url: '/magapi/info', remoteAddress: stranger, headers: auth(token) })).statusCode).toBe(200);
  }, 15_000);

  it('a Host other than the bound domain gets the bare 404', async () => {
    await save({ ...(await form({ domain: 'panel.example.com' })), confirm: true });
    bare(await h.app.inject({ method: 'GET', url: '/magapi/info', headers: { ...auth(token), host: '127.0.0.1:6688' } }));
    bare(await h.app.inject({ method: 'GET', url: '/', headers: { host: 'evil.example.com' } }));
    const ok = await h.app.inject({ method: 'GET', url: '/magapi/info', headers: { ...auth(token), host: 'PANEL.example.com:6688' } });
    expect(ok.statusCode).toBe(200);
  });

  it('authorized IPs: listed addresses, loopback and the super whitelist pass; others get the bare 404', async () => {
    await save({ ...(await form({ authorized: { enabled: true, ips: ['198.51.100.0/24', '2001:db8::1-2001:db8::ff'], areas: [] } })), confirm: true });
    const info = (remoteAddress: string) => h.app.inject({ method: 'GET', url: '/magapi/info', remoteAddress, headers: auth(token) });
    expect((await info('198.51.100.77')).statusCode).toBe(200);
    expect((await info('2001:db8::20')).statusCode).toBe(200);
    expect((await info('127.0.0.1')).statusCode).toBe(200);
    expect((await info('::1')).statusCode).toBe(200);
    bare(await info(stranger));
    bare(await info('2001:db8::1:0'));
    await h.agentClient.call('trust.add', { addresses: [stranger], added_by: 'test', remark: '', expires_at: null } as never);
    portalRuntime(h.console.ctx).forgetTrusted();
    expect((await info(stranger)).statusCode).toBe(200);
    await h.agentClient.call('trust.delete', { target: 'all' });
    portalRuntime(h.console.ctx).forgetTrusted();
    bare(await info(stranger));
  });
});

describe('login notice', () => {
  it('each sign-in raises a notice naming the account and address while it is on', async () => {
    const count = async () => (await h.agentClient.call('notices.list', { offset: 0, limit: 200 })).list.filter((n) => n.kind === 'panel_login');
    const before = (await count()).length;
    await h.login(admin.username, admin.password, '198.51.100.9');
    expect((await count()).length).toBe(before);
    await save(await form({ login_notice: true }));
    await h.login(admin.username, admin.password, '198.51.100.9');
    const notices = await count();
    expect(notices.length).toBe(before + 1);
    expect(notices[0]!.params).toMatchObject({ account: admin.username, ip: '198.51.100.9' });
  });
});
