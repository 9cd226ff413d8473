import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultWebsiteSettings, gatewayConfigSchema, type GatewayConfig } from '@rampart/contracts';
import { buildConsole } from '../src/app.ts';
import { readWebsiteSettings } from '../src/website/settings-store.ts';
import { magapi, startHarness, type Harness } from './support/harness.ts';
import { startFakeGateway, type FakeGateway } from './support/website-fake-gateway.ts';

/*
 * The policy the console writes for the gateway (website-gateway.ts `policy`): settings groups,
 * the agent's super whitelist and common areas, the cookie secret, the timed lists, and what the
 * module switch and a protection pause do to the sites. A real agent and panel database; the
 * gateway's admin socket is a stand-in (support/website-fake-gateway.ts), since the gateway is
 * being built in parallel — website-gateway-events.test.ts also runs the real one.
 */

let h: Harness;
let token: string;
let admin: { username: string; password: string };
let configFile: string;
let fake: FakeGateway;

/** A call, then the policy push it started (the routes answer before it: services/policy-signal.ts). */
const call = async (method: 'GET' | 'POST', url: string, payload?: unknown, lang: 'en-US' | 'zh-CN' = 'en-US') => {
  const answer = await magapi(h.app, method, url, { token, payload, lang });
  await h.console.ctx.policy.settled();
  return answer;
};
const gatewayFile = (): GatewayConfig => gatewayConfigSchema.parse(JSON.parse(readFileSync(configFile, 'utf8')));
const check = () => h.console.website.poller.checkPolicy();
const site = { name: 'Blog', status: 'on', running: true, listen: [{ address: '127.0.0.1', port: 18281, tls: false }], server_names: [], upstreams: ['http://127.0.0.1:18282'], tls_cert: '', tls_key: null, trusted_proxies: [] };

beforeAll(async () => {
  h = await startHarness();
  admin = await h.register();
  token = await h.login(admin.username, admin.password);
  configFile = join(h.dir, 'gateway', 'gateway.json');
  fake = await startFakeGateway(join(h.dir, 'run', 'gateway.sock'));
  expect((await call('POST', '/module_switch', { module: 'website', status: 1 })).body.code).toBe(0);
});
afterAll(async () => {
  await fake.close();
  await h.close();
});

describe('the policy in the gateway file', () => {
  it('carries every settings group as stored, the active super whitelist, the common areas and a cookie secret', async () => {
    expect((await call('POST', '/system/trust/ip', { ips: ['198.51.100.7', '10.9.0.0/16'], days: 0, remark: 'office' })).body.code).toBe(0);
    expect((await call('POST', '/system/trust/ip', { ips: ['192.0.2.200'], days: 1 })).body.code).toBe(0);
    const area = await call('POST', '/system/areas', { name: 'Near', members: ['JP', 'CN-BJ'] });
    expect(area.body.code, JSON.stringify(area.body)).toBe(0);
    expect((await call('POST', '/website/server', site)).body.code).toBe(0);
    const protect = { ...defaultWebsiteSettings.protect, authorization: { enabled: true, validity_minutes: 30, password: 'open sesame 1' } };
    const saved = await call('POST', '/website/protect', protect);
    expect(saved.body.code, JSON.stringify(saved.body)).toBe(0);
    expect(saved.body.data.gateway).toEqual({ state: 'reloaded' });

    const policy = gatewayFile().policy!;
    expect(policy.settings).toEqual(readWebsiteSettings(h.console.ctx.db));
    expect(policy.settings.protect.authorization.password_hash).toMatch(/^scrypt\$/);
    expect(policy.super_whitelist).toEqual(['10.9.0.0/16', '192.0.2.200', '198.51.100.7']);
    expect(policy.common_areas).toEqual([{ id: area.body.data.id, members: ['JP', 'CN-BJ'] }]);
    expect(policy.cookie_secret).toMatch(/^[0-9a-f]{64}$/);
    expect(gatewayFile().sites[0]!.status).toBe('on');
  });

  it('keeps the cookie secret across a console restart and never answers it on any route', async () => {
    const secret = gatewayFile().policy!.cookie_secret;
    // A second console on the same database and key file, as after a restart: the same secret, so the file is unchanged.
    const again = await buildConsole({ db: join(h.dir, 'panel.db'), agent: h.agentClient, licenceUrl: 'http://127.0.0.1:1', now: () => h.clock.now, background: false, webDir: join(h.dir, 'no-web') });
    try {
      expect(await again.website.poller.checkPolicy()).toEqual({ outcome: 'unchanged' });
      expect(gatewayFile().policy!.cookie_secret).toBe(secret);
    } finally {
      await again.close();
    }
    // Stored sealed, not in clear.
    expect(JSON.stringify(h.console.ctx.db.prepare('SELECT * FROM website_settings').all())).not.toContain(secret);
    // Every GET route of the console that needs no parameter: none answers it.
    const gets = h.console.routes.filter((r) => r.method === 'GET' && r.url.startsWith('/magapi/') && !r.url.includes(':') && !r.url.includes('download'));
    expect(gets.length).toBeGreaterThan(20);
    for (const route of gets) {
      const res = await h.app.inject({ method: 'GET', url: route.url, headers: { authorization: `Bearer ${token}` } });
      expect(res.body, route.url).not.toContain(secret);
    }
  });

  it('follows the super whitelist and common areas: pushed by the routes that change them, the rest by the periodic check; one reload per change', async () => {
    expect(await check()).toEqual({ outcome: 'unchanged' });
    const reloads = () => fake.lines.filter((l) => l === 'reload').length;
    const before = reloads();
    expect((await call('POST', '/system/trust/ip', { ips: ['203.0.113.0/24'], days: 0 })).body.code).toBe(0);
    // Pushed by the route: the periodic check finds nothing left to do.
    expect(gatewayFile().policy!.super_whitelist).toContain('203.0.113.0/24');
    expect(reloads()).toBe(before + 1);
    expect(await check()).toEqual({ outcome: 'unchanged' });
    expect(reloads()).toBe(before + 1);

    // An entry that ends leaves the list without anyone touching it.
    h.clock.now += 2 * 86_400_000;
    expect(await check()).toEqual({ outcome: 'reloaded' });
    token = await h.login(admin.username, admin.password);
    expect(gatewayFile().policy!.super_whitelist).not.toContain('192.0.2.200');

    const second = await call('POST', '/system/areas', { name: 'Far', members: ['US'] });
    expect(second.body.code).toBe(0);
    expect(await check()).toEqual({ outcome: 'unchanged' });
    expect(gatewayFile().policy!.common_areas.map((a) => a.members)).toEqual([['JP', 'CN-BJ'], ['US']]);
  });

  it('carries the trojan custom library, pushed by its route; a refused library changes nothing; cleared, the key is gone', async () => {
    const reloads = () => fake.lines.filter((l) => l === 'reload').length;
    expect(gatewayFile().policy!.custom_library).toBeUndefined();
    const before = reloads();
    const library = { rules: 'rule acme { strings: $a = "ACME-7731" condition: $a }', hashes: [`${'ab'.repeat(32)} # host 12`] };
    expect((await call('POST', '/trojan/library', { library })).body.code).toBe(0);
    // The agent's library as stored, without waiting for the periodic check.
    expect(gatewayFile().policy!.custom_library).toEqual(library);
    expect(reloads()).toBe(before + 1);
    expect((await call('POST', '/trojan/library', { library: { rules: 'rule broken {', hashes: [] } })).body.code).not.toBe(0);
    expect(gatewayFile().policy!.custom_library).toEqual(library);
    expect(reloads()).toBe(before + 1);
    expect((await call('POST', '/trojan/library', { library: { rules: '', hashes: [] } })).body.code).toBe(0);
    expect(gatewayFile().policy!.custom_library).toBeUndefined();
    expect(reloads()).toBe(before + 2);
  });

  it('rewrites only the timed lists without a reload when only they moved', async () => {
    const reloads = fake.lines.filter((l) => l === 'reload').length;
    h.console.ctx.db.prepare("INSERT INTO website_timed (list, ip, reason, detail, created_at, expires_at) VALUES ('intercept', '192.0.2.9', 'cc', '', ?, ?)").run(h.clock.now, h.clock.now + 60_000);
    expect(await check()).toEqual({ outcome: 'timed_only' });
    expect(gatewayFile().policy!.timed.intercepted.map((e) => e.ip)).toEqual(['192.0.2.9']);
    h.clock.now += 61_000;
    expect(await check()).toEqual({ outcome: 'timed_only' });
    expect(gatewayFile().policy!.timed.intercepted).toEqual([]);
    expect(fake.lines.filter((l) => l === 'reload').length).toBe(reloads);
  });

  it('turns every site off (still proxying) while the module is off or protection is paused, and back as they were, pushed at once', async () => {
    const reloads = () => fake.lines.filter((l) => l === 'reload').length;
    let before = reloads();
    expect((await call('POST', '/module_switch', { module: 'website', status: 0 })).body.code).toBe(0);
    // The switch pushed the change; the periodic check has nothing left.
    expect(reloads()).toBe(before + 1);
    expect(await check()).toEqual({ outcome: 'unchanged' });
    expect(gatewayFile().sites.map((s) => [s.status, s.running])).toEqual([['off', true]]);
    // The site's own status is kept.
    expect((await call('GET', '/website/server')).body.data.list[0].status).toBe('on');
    // A save while the module is off writes the same.
    expect((await call('POST', '/website/base', defaultWebsiteSettings.base)).body.code).toBe(0);
    expect(gatewayFile().sites[0]!.status).toBe('off');
    expect((await call('POST', '/module_switch', { module: 'website', status: 1 })).body.code).toBe(0);
    expect(gatewayFile().sites[0]!.status).toBe('on');

    before = reloads();
    expect((await call('POST', '/system/basic/protection', { mode: 'temp_off', minutes: 5 })).body.code).toBe(0);
    expect(gatewayFile().sites[0]!.status).toBe('off');
    expect(reloads()).toBe(before + 1);
    expect((await call('POST', '/system/basic/protection', { mode: 'on' })).body.code).toBe(0);
    expect(gatewayFile().sites[0]!.status).toBe('on');
    expect(await check()).toEqual({ outcome: 'unchanged' });

    // A pause that runs out on the agent's timer has no route to push it: the periodic check is the safety net.
    expect((await call('POST', '/system/basic/protection', { mode: 'temp_off', minutes: 1 })).body.code).toBe(0);
    expect(gatewayFile().sites[0]!.status).toBe('off');
    h.clock.now += 61_000;
    expect(await check()).toEqual({ outcome: 'reloaded' });
    expect(gatewayFile().sites[0]!.status).toBe('on');
  });

  it('does not rewrite from stale inputs while the agent is away, and saves still work from the last known ones', async () => {
    const fileBefore = readFileSync(configFile, 'utf8');
    // The link's agent goes away (the rest of the console keeps its own).
    const cache = h.console.website.link.agentInputs as unknown as { agent: unknown };
    const realAgent = cache.agent;
    cache.agent = { call: () => Promise.reject(new Error('agent away')) };
    try {
      expect(await check()).toEqual({ outcome: 'agent_away' });
      expect(readFileSync(configFile, 'utf8')).toBe(fileBefore);
      expect((await call('POST', '/website/base', { ...defaultWebsiteSettings.base, block_mode: 'loose' })).body.code).toBe(0);
      expect(gatewayFile().policy!.super_whitelist).toContain('203.0.113.0/24');
    } finally {
      cache.agent = realAgent;
    }
  });
});
