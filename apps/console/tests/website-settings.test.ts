import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultWebsiteSettings, gatewayConfigSchema, translate, websiteTabInputSchemas, type MessageKey } from '@rampart/contracts';
import { verifyAuthorizationPassword } from '../../../packages/waf/src/policy/authorization.ts';
import { magapi, startHarness, type Harness } from './support/harness.ts';

/* The website settings tabs and the two timed lists, against a real panel database. */

let h: Harness;
let token: string;
let configFile: string;

beforeAll(async () => {
  h = await startHarness();
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
  configFile = join(h.dir, 'gateway', 'gateway.json');
});
afterAll(() => h.close());

type Lang = 'zh-CN' | 'en-US';
const call = (method: 'GET' | 'POST', url: string, payload?: unknown, options: { lang?: Lang; as?: string } = {}) =>
  magapi(h.app, method, url, { token: options.as ?? token, payload, ...(options.lang ? { lang: options.lang } : {}) });
const stored = () => JSON.stringify(h.console.ctx.db.prepare('SELECT * FROM website_settings ORDER BY tab').all()) + JSON.stringify(h.console.ctx.db.prepare('SELECT * FROM website_timed ORDER BY ip').all());
const gatewayFile = () => gatewayConfigSchema.parse(JSON.parse(readFileSync(configFile, 'utf8')));

describe('settings tabs', () => {
  it('answers every tab with the defaults before anything is saved', async () => {
    for (const tab of ['base', 'request', 'sql', 'attack', 'response', 'lists'] as const) {
      const res = await call('GET', `/website/${tab}`);
      expect(res.body, tab).toMatchObject({ code: 0, data: defaultWebsiteSettings[tab] });
    }
    const protect = await call('GET', '/website/protect');
    expect(protect.body.data.authorization).toEqual({ enabled: false, validity_minutes: 60, password_set: false });
  });

  it('saves each tab, answers it back, and regenerates the gateway file (block mode and response reach every site)', async () => {
    const site = await call('POST', '/website/server', {
      name: 'Blog', status: 'on', running: true, listen: [{ address: '127.0.0.1', port: 18181, tls: false }], server_names: [], upstreams: ['http://127.0.0.1:18182'], tls_cert: '', tls_key: null, trusted_proxies: ['10.0.0.0/8'],
    });
    expect(site.body.code).toBe(0);
    const base = { ...defaultWebsiteSettings.base, block_mode: 'loose' as const, frame_options: { mode: 'allow_from' as const, domains: ['example.com'] } };
    const response = { type: 'custom' as const, status: 406, redirect_url: '', content: '<h1>no</h1>' };
    const request = { ...defaultWebsiteSettings.request, denied_methods: ['PUT'], limits: { url_bytes: 4096, header_bytes: 0, post_bytes: 0, snapshot_bytes: 0 } };
    const sql = { sqli: false, keywords: { ...defaultWebsiteSettings.sql.keywords, block: { enabled: true, rules: ['casino--casino royale review'] } } };
    const attack = { ...defaultWebsiteSettings.attack, file_inclusion: { local: true, remote: false } };
    const lists = { ...defaultWebsiteSettings.lists, ip_black: { enabled: true, ips: ['203.0.113.0/24'], areas: [] } };
    for (const [tab, value] of Object.entries({ base, response, request, sql, attack, lists })) {
      const res = await call('POST', `/website/${tab}`, value);
      expect(res.body.code, `${tab} ${JSON.stringify(res.body)}`).toBe(0);
      expect(res.body.data.gateway).toEqual({ state: 'not_running' });
      expect((await call('GET', `/website/${tab}`)).body.data, tab).toEqual(websiteTabInputSchemas[tab as 'base'].parse(value));
    }
    const entry = gatewayFile().sites[0]!;
    expect(entry.block_mode).toBe('loose');
    expect(entry.block_response).toEqual(response);
    expect(entry.trusted_proxies).toEqual(['10.0.0.0/8']);
  });

  it('hashes the authorization password the way the engine verifies it, never answers it, and keeps it on null', async () => {
    const protect = { ...defaultWebsiteSettings.protect, authorization: { enabled: true, validity_minutes: 30, password: 'open sesame 1' } };
    expect((await call('POST', '/website/protect', protect)).body.code).toBe(0);
    const row = h.console.ctx.db.prepare("SELECT value FROM website_settings WHERE tab = 'protect'").get() as { value: string };
    const hash = (JSON.parse(row.value) as { authorization: { password_hash: string } }).authorization.password_hash;
    expect(verifyAuthorizationPassword(hash, 'open sesame 1')).toBe(true);
    expect(verifyAuthorizationPassword(hash, 'open sesame 2')).toBe(false);
    const view = await call('GET', '/website/protect');
    expect(JSON.stringify(view.body)).not.toContain('scrypt');
    expect(view.body.data.authorization).toEqual({ enabled: true, validity_minutes: 30, password_set: true });
    // null keeps the stored hash.
    expect((await call('POST', '/website/protect', { ...protect, authorization: { ...protect.authorization, validity_minutes: 45, password: null } })).body.code).toBe(0);
    const again = JSON.parse((h.console.ctx.db.prepare("SELECT value FROM website_settings WHERE tab = 'protect'").get() as { value: string }).value);
    expect(again.authorization).toEqual({ enabled: true, validity_minutes: 45, password_hash: hash });
  });

  it('updates only the content part of the request tab, the attack headers, and gives the keyword libraries', async () => {
    const content = { upload: { enabled: true, types: 'jpg,png,' }, file_types: { enabled: true, mode: 'allow' as const, scope: 'root' as const, extensions: ['php', 'html'] } };
    expect((await call('POST', '/website/request/content', content)).body.code).toBe(0);
    const request = (await call('GET', '/website/request')).body.data;
    expect(request).toMatchObject({ ...content, denied_methods: ['PUT'] });

    expect((await call('POST', '/website/attack_header', { headers: ['User-Agent', 'x-api-key', 'user-agent'] })).body.code).toBe(0);
    expect((await call('GET', '/website/attack_header')).body.data).toEqual({ headers: ['user-agent', 'x-api-key'] });
    expect((await call('GET', '/website/attack')).body.data.file_inclusion).toEqual({ local: true, remote: false });

    const keywords = await call('POST', '/website/sql_getkeywords');
    expect(keywords.body.data.block).toEqual({ enabled: true, rules: ['casino--casino royale review'] });
  });

  it('refuses bad tab input on the field in both languages and saves nothing', async () => {
    const before = stored();
    const fileBefore = readFileSync(configFile, 'utf8');
    const cases: [string, unknown, string, MessageKey][] = [
      ['/website/base', { ...defaultWebsiteSettings.base, block_mode: 'medium' }, 'block_mode', 'web_mode_invalid'],
      ['/website/request', { ...defaultWebsiteSettings.request, limits: { url_bytes: -1, header_bytes: 0, post_bytes: 0, snapshot_bytes: 0 } }, 'limits.url_bytes', 'web_size_invalid'],
      ['/website/request/content', { upload: { enabled: true, types: 'jp g' }, file_types: defaultWebsiteSettings.request.file_types }, 'upload.types', 'web_upload_types_invalid'],
      ['/website/protect', { ...defaultWebsiteSettings.protect, authorization: { enabled: true, validity_minutes: 30, password: '12345678' } }, 'authorization.password', 'web_auth_password_invalid'],
      ['/website/sql', { sqli: true, keywords: { ...defaultWebsiteSettings.sql.keywords, block: { enabled: true, rules: ['a++'] } } }, 'keywords.block.rules', 'web_keyword_syntax'],
      ['/website/attack_header', { headers: ['bad header'] }, 'headers', 'web_header_invalid'],
      ['/website/response', { type: 'redirect', status: 302, redirect_url: 'javascript:alert(1)', content: '' }, 'redirect_url', 'web_redirect_invalid'],
      ['/website/lists', { ...defaultWebsiteSettings.lists, ip_black: { enabled: true, ips: ['300.1.1.1'], areas: [] } }, 'ip_black.ips', 'fw_address_invalid'],
      ['/website/intercept_list', { ips: ['not-an-ip'], minutes: 10 }, 'ips', 'fw_address_invalid'],
      ['/website/author_list_delete', { ips: [] }, 'ips', 'fw_select_items'],
    ];
    for (const [url, payload, field, message] of cases) {
      const seen: Record<string, string> = {};
      for (const lang of ['en-US', 'zh-CN'] as const) {
        const res = await call('POST', url, payload, { lang });
        expect(res.status, `${url} ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body.code).toBe(2);
        expect(String(res.body.data.field).startsWith(field), `${url}: ${res.body.data.field}`).toBe(true);
        seen[lang] = res.body.msg;
        expect(res.body.msg, url).toBe(translate(lang, message));
      }
      // Localized: the two languages say it differently, and neither is a bare key.
      expect(seen['en-US'], url).not.toBe(seen['zh-CN']);
      expect(seen['en-US'], url).not.toMatch(/^[a-z_]+$/);
    }
    expect(stored()).toBe(before);
    expect(readFileSync(configFile, 'utf8')).toBe(fileBefore);
  });
});

describe('interception and authorization lists', () => {
  it('adds, pages, filters, expires and deletes entries', async () => {
    for (const name of ['intercept_list', 'author_list']) {
      expect((await call('POST', `/website/${name}`, { ips: ['203.0.113.7', '198.51.100.1'], minutes: 10, remark: 'by hand' })).body.code).toBe(0);
      const page = await call('GET', `/website/${name}?keyword=203.0&page=1&size=10`);
      expect(page.body.data.total).toBe(1);
      expect(page.body.data.list[0]).toMatchObject({ ip: '203.0.113.7', reason: 'manual', detail: 'by hand', expires_at: h.clock.now + 600_000 });
      expect((await call('GET', `/website/${name}`)).body.data.total).toBe(2);
      expect((await call('POST', `/website/${name}_delete`, { ips: ['203.0.113.7'] })).body.data).toEqual({ deleted: 1, gateway: { state: 'not_running' } });
      expect((await call('GET', `/website/${name}`)).body.data.total).toBe(1);
    }
    h.clock.now += 11 * 60_000;
    expect((await call('GET', '/website/intercept_list')).body.data).toEqual({ list: [], total: 0 });
    const bad = await call('GET', '/website/intercept_list?size=1000', undefined, { lang: 'zh-CN' });
    expect(bad.status).toBe(400);
  });

  it('lets a technician use every tab and refuses an auditor without saving', async () => {
    const technician = await h.addUser('technician');
    const auditor = await h.addUser('auditor');
    expect((await call('GET', '/website/base', undefined, { as: technician.token })).body.code).toBe(0);
    expect((await call('POST', '/website/base', defaultWebsiteSettings.base, { as: technician.token })).body.code).toBe(0);
    expect((await call('POST', '/website/intercept_list', { ips: ['192.0.2.1'], minutes: 5 }, { as: technician.token })).body.code).toBe(0);
    const before = stored();
    for (const [method, url, payload] of [
      ['GET', '/website/base', undefined], ['POST', '/website/base', defaultWebsiteSettings.base], ['GET', '/website/protect', undefined],
      ['POST', '/website/lists', defaultWebsiteSettings.lists], ['GET', '/website/intercept_list', undefined],
      ['POST', '/website/intercept_list', { ips: ['192.0.2.2'], minutes: 5 }], ['POST', '/website/intercept_list_delete', { ips: ['192.0.2.1'] }],
      ['POST', '/website/sql_getkeywords', undefined], ['GET', '/website/attack_header', undefined],
    ] as const) {
      expect((await call(method, url, payload, { as: auditor.token })).status, url).toBe(403);
    }
    expect(stored()).toBe(before);
  });
});
