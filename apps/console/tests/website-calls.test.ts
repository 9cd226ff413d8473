import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultWebsiteSettings, translate, websiteDiscoverySchema, type MessageKey, type WebsiteSiteInput } from '@rampart/contracts';
import { magapi, startHarness, type Harness } from './support/harness.ts';

/*
 * Every call under `/website/` (spec 7 and the few the console adds: server/edit, server/discover,
 * server_delete, server_status, server_running), each with a good request that does what it says
 * and a bad one refused on its field in both languages, changing nothing — the panel database's
 * website tables and the gateway file stay byte for byte. A route declared under /website/ that
 * this table does not name fails the first test: a new call comes with its cases.
 */

let h: Harness;
let token: string;
let configFile: string;
let siteId: number;

beforeAll(async () => {
  h = await startHarness();
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
  configFile = join(h.dir, 'gateway', 'gateway.json');
  expect((await call('POST', '/module_switch', { module: 'website', status: 1 })).body.code).toBe(0);
  const added = await call('POST', '/website/server', site());
  expect(added.body.code, JSON.stringify(added.body)).toBe(0);
  siteId = added.body.data.id as number;
});
afterAll(() => h.close());

type Lang = 'zh-CN' | 'en-US';
const call = (method: 'GET' | 'POST', url: string, payload?: unknown, lang: Lang = 'en-US') => magapi(h.app, method, url, { token, payload, lang });
const site = (change: Partial<WebsiteSiteInput> = {}): WebsiteSiteInput => ({
  name: 'Calls', status: 'on', running: true, listen: [{ address: '127.0.0.1', port: 18301, tls: false }], server_names: ['calls.example.com'],
  upstreams: ['http://127.0.0.1:18302'], tls_cert: '', tls_key: null, trusted_proxies: [], ...change,
});
/** The website desired state and what the gateway would read. */
const state = () =>
  ['website_sites', 'website_settings', 'website_timed'].map((t) => JSON.stringify(h.console.ctx.db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all())).join('\n') +
  (existsSync(configFile) ? readFileSync(configFile, 'utf8') : '');

interface BadCase {
  method: 'GET' | 'POST';
  url: string;
  payload?: unknown;
  status: number;
  /** The message key the refusal carries; `field` where the form shows it. */
  message: MessageKey;
  field?: string;
}

/** One bad request per call: refused in both languages with the message on its field, nothing changed. */
const bad: Record<string, BadCase> = {
  'GET /website/server': { method: 'GET', url: '/website/server?page=abc', status: 400, message: 'bad_request' },
  'POST /website/server': { method: 'POST', url: '/website/server', payload: site({ upstreams: ['ftp://127.0.0.1:21'] }), status: 400, message: 'wapi_upstream_invalid', field: 'upstreams' },
  'POST /website/server/edit': { method: 'POST', url: '/website/server/edit', payload: { ...site(), id: 999_999 }, status: 200, message: 'wapi_site_missing' },
  'GET /website/server/discover': { method: 'GET', url: '/website/server/discover?x=1', status: 400, message: 'bad_request' },
  'POST /website/server_delete': { method: 'POST', url: '/website/server_delete', payload: { ids: [] }, status: 400, message: 'fw_select_items', field: 'ids' },
  'POST /website/server_status': { method: 'POST', url: '/website/server_status', payload: { ids: [999_999], status: 'off' }, status: 200, message: 'wapi_site_missing' },
  'POST /website/server_running': { method: 'POST', url: '/website/server_running', payload: { ids: [999_999], running: false }, status: 200, message: 'wapi_site_missing' },
  'GET /website/base': { method: 'GET', url: '/website/base?x=1', status: 400, message: 'bad_request' },
  'POST /website/base': { method: 'POST', url: '/website/base', payload: { ...defaultWebsiteSettings.base, block_mode: 'medium' }, status: 400, message: 'web_mode_invalid', field: 'block_mode' },
  'GET /website/request': { method: 'GET', url: '/website/request?t=x', status: 400, message: 'bad_request' },
  'POST /website/request': {
    method: 'POST', url: '/website/request', payload: { ...defaultWebsiteSettings.request, limits: { url_bytes: -1, header_bytes: 0, post_bytes: 0, snapshot_bytes: 0 } },
    status: 400, message: 'web_size_invalid', field: 'limits.url_bytes',
  },
  'POST /website/request/content': {
    method: 'POST', url: '/website/request/content', payload: { upload: { enabled: true, types: 'jp g' }, file_types: defaultWebsiteSettings.request.file_types },
    status: 400, message: 'web_upload_types_invalid', field: 'upload.types',
  },
  'GET /website/protect': { method: 'GET', url: '/website/protect?x=1', status: 400, message: 'bad_request' },
  'POST /website/protect': {
    method: 'POST', url: '/website/protect', payload: { ...defaultWebsiteSettings.protect, authorization: { enabled: true, validity_minutes: 30, password: 'abcdefgh' } },
    status: 400, message: 'web_auth_password_invalid', field: 'authorization.password',
  },
  'GET /website/sql': { method: 'GET', url: '/website/sql?x=1', status: 400, message: 'bad_request' },
  'POST /website/sql': {
    method: 'POST', url: '/website/sql', payload: { sqli: true, keywords: { ...defaultWebsiteSettings.sql.keywords, record: { enabled: true, rules: ['==x'] } } },
    status: 400, message: 'web_keyword_syntax', field: 'keywords.record.rules',
  },
  'POST /website/sql_getkeywords': { method: 'POST', url: '/website/sql_getkeywords', payload: { all: true }, status: 400, message: 'bad_request' },
  'GET /website/attack': { method: 'GET', url: '/website/attack?x=1', status: 400, message: 'bad_request' },
  'POST /website/attack': {
    method: 'POST', url: '/website/attack', payload: { ...defaultWebsiteSettings.attack, headers: ['bad header'] },
    status: 400, message: 'web_header_invalid', field: 'headers',
  },
  'GET /website/attack_header': { method: 'GET', url: '/website/attack_header?x=1', status: 400, message: 'bad_request' },
  'POST /website/attack_header': { method: 'POST', url: '/website/attack_header', payload: { headers: ['x:y'] }, status: 400, message: 'web_header_invalid', field: 'headers' },
  'GET /website/response': { method: 'GET', url: '/website/response?x=1', status: 400, message: 'bad_request' },
  'POST /website/response': {
    method: 'POST', url: '/website/response', payload: { type: 'redirect', status: 302, redirect_url: 'javascript:alert(1)', content: '' },
    status: 400, message: 'web_redirect_invalid', field: 'redirect_url',
  },
  'GET /website/lists': { method: 'GET', url: '/website/lists?x=1', status: 400, message: 'bad_request' },
  'POST /website/lists': {
    method: 'POST', url: '/website/lists', payload: { ...defaultWebsiteSettings.lists, ip_white: { enabled: true, ips: ['10.0.0.0/33'], areas: [] } },
    status: 400, message: 'fw_address_invalid', field: 'ip_white.ips',
  },
  'GET /website/intercept_list': { method: 'GET', url: '/website/intercept_list?size=1000', status: 400, message: 'bad_request', field: 'size' },
  'POST /website/intercept_list': { method: 'POST', url: '/website/intercept_list', payload: { ips: ['not-an-ip'], minutes: 10 }, status: 400, message: 'fw_address_invalid', field: 'ips' },
  'POST /website/intercept_list_delete': { method: 'POST', url: '/website/intercept_list_delete', payload: { ips: ['1.2.3'] }, status: 400, message: 'fw_address_invalid', field: 'ips' },
  'GET /website/author_list': { method: 'GET', url: '/website/author_list?page=0', status: 400, message: 'bad_request', field: 'page' },
  'POST /website/author_list': { method: 'POST', url: '/website/author_list', payload: { ips: [], minutes: 10 }, status: 400, message: 'fw_address_required', field: 'ips' },
  'POST /website/author_list_delete': { method: 'POST', url: '/website/author_list_delete', payload: { ips: [] }, status: 400, message: 'fw_select_items', field: 'ips' },
};

describe('every call under /website/', () => {
  it('has a bad-input case here for each declared route', () => {
    const declared = h.console.routes.filter((r) => r.url.startsWith('/magapi/website/')).map((r) => `${r.method} ${r.url.slice('/magapi'.length)}`);
    expect(declared.sort()).toEqual(Object.keys(bad).sort());
  });

  it('refuses bad input on its field with a clear message in both languages, never a 500, and changes nothing', async () => {
    const before = state();
    for (const [name, c] of Object.entries(bad)) {
      const seen: Partial<Record<Lang, string>> = {};
      for (const lang of ['en-US', 'zh-CN'] as const) {
        const res = await call(c.method, c.url, c.payload, lang);
        expect(res.status, `${name} ${JSON.stringify(res.body)}`).toBe(c.status);
        expect(res.body.code, name).toBe(2);
        expect(res.body.msg, name).toBe(translate(lang, c.message));
        if (c.field) expect(String(res.body.data?.field), name).toMatch(new RegExp(`^${c.field.replace(/\./g, '\\.')}(\\.|$)`));
        seen[lang] = res.body.msg;
      }
      // Localized: the two languages differ, the Chinese one is Chinese, neither is a bare key.
      expect(seen['en-US'], name).not.toBe(seen['zh-CN']);
      expect(seen['zh-CN'], name).toMatch(/[\u4e00-\u9fff]/);
      expect(seen['en-US'], name).not.toMatch(/^[a-z_]+$/);
    }
    expect(state()).toBe(before);
  });

  it('does what each good request says', async () => {
    const good = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
      const res = await call(method, url, payload);
      expect(res.body.code, `${method} ${url} ${JSON.stringify(res.body)}`).toBe(0);
      return res.body.data;
    };
    const listed = await good('GET', '/website/server');
    expect(listed).toMatchObject({ total: 1, is_any_open: true, list: [{ id: siteId, name: 'Calls' }] });
    expect(await good('POST', '/website/server/edit', { ...site({ name: 'Calls 2' }), id: siteId })).toMatchObject({ id: siteId });
    expect(websiteDiscoverySchema.safeParse(await good('GET', '/website/server/discover')).success).toBe(true);
    expect(await good('POST', '/website/server_status', { ids: [siteId], status: 'off' })).toMatchObject({ changed: 1 });
    expect(await good('POST', '/website/server_running', { ids: [siteId], running: false })).toMatchObject({ changed: 1 });
    expect((await good('GET', '/website/server')).list[0]).toMatchObject({ name: 'Calls 2', status: 'off', running: false });

    const base = { ...defaultWebsiteSettings.base, block_mode: 'loose' as const };
    const request = { ...defaultWebsiteSettings.request, denied_methods: ['TRACE'] };
    const sql = { sqli: true, keywords: { ...defaultWebsiteSettings.sql.keywords, filter: { enabled: true, rules: ['spam==***'] } } };
    const attack = { ...defaultWebsiteSettings.attack, headers: ['user-agent'] };
    const response = { type: 'standard' as const, status: 406, redirect_url: '', content: '' };
    const lists = { ...defaultWebsiteSettings.lists, url_white: { enabled: true, entries: ['/health'] } };
    for (const [tab, value] of Object.entries({ base, request, sql, attack, response, lists })) {
      await good('POST', `/website/${tab}`, value);
      expect(await good('GET', `/website/${tab}`), tab).toMatchObject(value);
    }
    await good('POST', '/website/protect', { ...defaultWebsiteSettings.protect, authorization: { enabled: true, validity_minutes: 20, password: 'Passw0rd-x' } });
    expect((await good('GET', '/website/protect')).authorization).toEqual({ enabled: true, validity_minutes: 20, password_set: true });
    await good('POST', '/website/request/content', { upload: { enabled: true, types: 'png' }, file_types: defaultWebsiteSettings.request.file_types });
    expect(await good('GET', '/website/request')).toMatchObject({ denied_methods: ['TRACE'], upload: { enabled: true, types: 'png' } });
    expect((await good('POST', '/website/sql_getkeywords')).filter).toEqual({ enabled: true, rules: ['spam==***'] });
    await good('POST', '/website/attack_header', { headers: ['X-Token'] });
    expect(await good('GET', '/website/attack_header')).toEqual({ headers: ['x-token'] });

    for (const name of ['intercept_list', 'author_list']) {
      expect(await good('POST', `/website/${name}`, { ips: ['192.0.2.9'], minutes: 5, remark: 'calls' })).toMatchObject({ added: 1 });
      expect((await good('GET', `/website/${name}?keyword=192.0.2&page=1&size=10`)).list).toMatchObject([{ ip: '192.0.2.9', detail: 'calls' }]);
      expect(await good('POST', `/website/${name}_delete`, { ips: ['192.0.2.9'] })).toMatchObject({ deleted: 1 });
    }
    expect(await good('POST', '/website/server_delete', { ids: [siteId] })).toMatchObject({ deleted: 1 });
    expect((await good('GET', '/website/server')).total).toBe(0);
  });

  it('refuses to delete a site that is not there, in both languages', async () => {
    const before = state();
    for (const lang of ['en-US', 'zh-CN'] as const) {
      const res = await call('POST', '/website/server_delete', { ids: [999_999] }, lang);
      expect(res.body).toMatchObject({ code: 2, msg: translate(lang, 'wapi_site_missing') });
    }
    expect(state()).toBe(before);
  });

  it('tells a technician, who may not read the super whitelist, the address it is seen at (for the own-IP warning of the lists)', async () => {
    const technician = await h.addUser('technician');
    const at = async (remoteAddress: string) => {
      const signedIn = await h.login(technician.username, technician.password, remoteAddress);
      const res = await h.app.inject({ url: '/magapi/info', headers: { authorization: `Bearer ${signedIn}` }, remoteAddress });
      return res.json().data.client_ip as string;
    };
    expect(await at('198.51.100.20')).toBe('198.51.100.20');
    // An IPv4 client on a dual-stack socket shows as itself, as the blacklist entries name it.
    expect(await at('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect((await magapi(h.app, 'GET', '/system/trust/ip', { token: technician.token })).status).toBe(403);
  });
});
