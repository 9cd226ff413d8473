import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basicModules, homeIndexSchema, moduleKeys, modulesInBuild, moduleSwitchResultSchema, type ModuleKey } from '@rampart/contracts';
import { auth, startHarness, type Harness } from './support/harness.ts';
import { reconcileModules } from '../src/services/module-reconciler.ts';
import { guardHealth } from '../src/services/system-status.ts';

let h: Harness;
let token: string;
const en = { 'accept-language': 'en-US' };
/** The modules of this build that are off when `on` are on, in the status's order (the module list's). */
const builtOff = (on: readonly ModuleKey[] = []) => moduleKeys.filter((m) => modulesInBuild.includes(m) && !on.includes(m));

beforeEach(async () => {
  h = await startHarness();
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterEach(() => h.close());

describe('home page figures come from the agent over its socket', () => {
  it('reports this machine', async () => {
    const res = await h.app.inject({ url: '/magapi/home/index', headers: auth(token) });
    const data = homeIndexSchema.parse(res.json().data);
    expect(data.agent).toBe('connected');
    expect(data.host!.cores).toBe(availableParallelism());
    const memTotalKb = Number(/MemTotal:\s+(\d+)/.exec(readFileSync('/proc/meminfo', 'utf8'))![1]);
    expect(data.host!.memory.total).toBe(memTotalKb * 1024);
    expect(data.host!.disks.some((d) => d.mount === '/')).toBe(true);
    expect(data.rates!.rx).toBeGreaterThanOrEqual(0);
    expect(data.protection).toEqual({ mode: 'on', minutes_left: null });
    expect(data.expires_at).toBeGreaterThan(Date.now());
    // The library version is the web-shell rule set the agent loaded (its files' `// version:` header).
    const { ruleSetVersion } = await h.agentClient.call('trojan.status', {});
    expect(ruleSetVersion).toMatch(/^rampart-webshell-\d{4}\.\d{2}\.\d+$/);
    expect(data.virlib_version).toBe(ruleSetVersion);
  });

  it('shows a temporary disable with the minutes left, and protection back on when the time is up', async () => {
    // The agent owns protection (and runs on the harness clock).
    await h.agentClient.call('protection.set', { mode: 'temp_off', minutes: 90 });
    const during = (await h.app.inject({ url: '/magapi/home/index', headers: auth(token) })).json().data;
    expect(during.protection).toEqual({ mode: 'temp_off', minutes_left: 90 });
    h.clock.now += 91 * 60_000;
    const after = (await h.app.inject({ url: '/magapi/home/index', headers: auth(token) })).json().data;
    expect(after.protection).toEqual({ mode: 'on', minutes_left: null });
  });

  it('says the agent is unreachable rather than inventing figures', async () => {
    await h.agent!.close();
    const data = (await h.app.inject({ url: '/magapi/home/index', headers: auth(token) })).json().data;
    expect(data.agent).toBe('unreachable');
    expect(data.host).toBeNull();
    expect(data.rates).toBeNull();
  });
});

describe('the system status is computed from the switches, protection and each engine', () => {
  const home = async () => {
    const res = await h.app.inject({ url: '/magapi/home/index', headers: auth(token) });
    expect(res.statusCode).toBe(200);
    expect(res.json().code).toBe(0);
    return homeIndexSchema.parse(res.json().data);
  };
  const switchOn = (module: string) => h.app.inject({ method: 'POST', url: '/magapi/module_switch', payload: { module, status: 1 }, headers: auth(token) });

  it('every module off: not protected, and lists the modules of this build as off (protection itself stays "on")', async () => {
    const data = await home();
    expect(data.protection).toEqual({ mode: 'on', minutes_left: null });
    expect(data.system_status).toEqual({
      level: 'unprotected', why: ['no_module_on'], healthy: [], off: builtOff(), failing: [], partly: [], unknown: [],
    });
  });

  it('modules on whose engines cannot enforce here (no nft in the harness, no gateway) are failing, each with why: unprotected', async () => {
    for (const module of ['firewall', 'remote', 'website']) await switchOn(module);
    const status = (await home()).system_status;
    expect(status).toEqual({
      level: 'unprotected', why: ['all_failing'], healthy: [], off: builtOff(['firewall', 'remote', 'website']), partly: [], unknown: [],
      failing: [{ module: 'firewall', reason: 'firewall_unavailable' }, { module: 'remote', reason: 'remote_not_enforced' }, { module: 'website', reason: 'gateway_not_running' }],
    });
  });

  it('remote protection alone says it needs the firewall', async () => {
    await switchOn('remote');
    expect((await home()).system_status.failing).toEqual([{ module: 'remote', reason: 'remote_needs_firewall' }]);
  });

  it('the guard’s modules report what the agent’s guard says (BPF LSM, fanotify fallback or no helper on this machine)', async () => {
    await switchOn('tamper');
    const expected = guardHealth(await h.agentClient.call('tamper.status', {}));
    const status = (await home()).system_status;
    if (expected.state === 'ok') expect(status).toMatchObject({ level: 'protected', healthy: ['tamper'] });
    else expect(status[expected.state]).toEqual([{ module: 'tamper', reason: expected.reason }]);
    expect(status.level).toBe(expected.state === 'ok' ? 'protected' : expected.state === 'partly' ? 'degraded' : 'unprotected');
  });

  it('paused protection is unprotected whatever the modules', async () => {
    await switchOn('firewall');
    await h.agentClient.call('protection.set', { mode: 'temp_off', minutes: 30 });
    const status = (await home()).system_status;
    expect(status).toMatchObject({ level: 'unprotected', why: ['protection_paused', 'all_failing'] });
  });

  it('the agent away: an answer that says so, never a 500', async () => {
    await switchOn('firewall');
    await switchOn('tamper');
    await h.agent!.close();
    const data = await home();
    expect(data.agent).toBe('unreachable');
    expect(data.system_status).toMatchObject({
      level: 'degraded', why: ['agent_unreachable'], healthy: [],
      unknown: [{ module: 'firewall', reason: 'agent_unreachable' }, { module: 'tamper', reason: 'agent_unreachable' }],
    });
  });
});

describe('module switches', () => {
  it('stores the desired state and makes the agent match, one module or every basic module at once', async () => {
    const one = (await h.app.inject({ method: 'POST', url: '/magapi/module_switch', payload: { module: 'firewall', status: 1 }, headers: { ...auth(token), ...en } })).json();
    expect(one).toMatchObject({ code: 0, msg: 'Turned on' });
    expect((await h.agentClient.call('module.list', {})).firewall).toBe(1);

    await h.app.inject({ method: 'POST', url: '/magapi/module_switch', payload: { module: 'basic', status: 1 }, headers: auth(token) });
    const flags = await h.agentClient.call('module.list', {});
    for (const m of basicModules) expect(flags[m]).toBe(modulesInBuild.includes(m) ? 1 : 0);
    expect(flags.website).toBe(0);
    const info = (await h.app.inject({ url: '/magapi/info', headers: auth(token) })).json().data;
    expect(info.module_list).toEqual(flags);
  });

  const switchModule = async (payload: object, lang: string) =>
    (await h.app.inject({ method: 'POST', url: '/magapi/module_switch', payload, headers: { ...auth(token), 'accept-language': lang } })).json();
  const storedRows = () => h.console.ctx.db.prepare('SELECT key, status FROM modules').all() as { key: string; status: number }[];

  it('switches cloud protection on and off now that its engine is in this build (the last module to get one)', async () => {
    expect(modulesInBuild).toContain('cloud');
    const on = await switchModule({ module: 'cloud', status: 1 }, 'zh-CN');
    expect(on).toMatchObject({ code: 0, lang: 'zh-CN' });
    expect(moduleSwitchResultSchema.parse(on.data)).toMatchObject({ switched: ['cloud'], not_switched: [] });
    expect((await h.agentClient.call('module.list', {})).cloud).toBe(1);
    expect((await h.app.inject({ url: '/magapi/info', headers: auth(token) })).json().data.module_list.cloud).toBe(1);
    const off = await switchModule({ module: 'cloud', status: 0 }, 'en-US');
    expect(off).toMatchObject({ code: 0, msg: 'Turned off' });
    expect(storedRows().find((r) => r.key === 'cloud')?.status).toBe(0);
    expect((await h.agentClient.call('module.list', {})).cloud).toBe(0);
  });

  it('"open all basic modules" opens those of this build and says which it could not open and why, in both languages', async () => {
    const built = basicModules.filter((m) => modulesInBuild.includes(m));
    const left = basicModules.filter((m) => !modulesInBuild.includes(m));
    const zh = await switchModule({ module: 'basic', status: 1 }, 'zh-CN');
    const data = moduleSwitchResultSchema.parse(zh.data);
    expect(data.switched).toEqual(built);
    expect(data.not_switched).toEqual(left.map((module) => ({ module, reason: 'not_in_build' })));
    for (const m of basicModules) expect(data.modules[m]).toBe(built.includes(m) ? 1 : 0);
    const agentFlags = await h.agentClient.call('module.list', {});
    for (const m of basicModules) expect(agentFlags[m]).toBe(built.includes(m) ? 1 : 0);
    for (const m of left) expect(storedRows().find((r) => r.key === m)).toBeUndefined();
    // Every opened module is named; a module left out is named with why (a warning, code 1).
    expect(zh.code).toBe(left.length ? 1 : 0);
    expect(zh.msg).toMatch(/^已开启：/);
    expect(zh.msg).toContain('防火墙');
    expect(zh.msg).toContain('远程防护');
    if (left.length) expect(zh.msg).toMatch(/未能开启：.*（此版本暂未包含）$/);

    const en = await switchModule({ module: 'basic', status: 1 }, 'en-US');
    expect(en.msg).toMatch(/^Turned on: Firewall/);
    if (left.length) expect(en.msg).toMatch(/Not turned on: .* \(not in this build yet\)$/);
    else expect(en.msg).not.toContain('Not turned on');

    // Closing all basic modules closes every one of them, built or not.
    const close = await switchModule({ module: 'basic', status: 0 }, 'en-US');
    expect(close).toMatchObject({ code: 0, msg: 'Turned off' });
    expect(moduleSwitchResultSchema.parse(close.data)).toMatchObject({ switched: [...basicModules], not_switched: [] });
  });

  it('keeps the switch when the agent is away and pushes it when the agent is back', async () => {
    await h.agent!.close();
    const res = (await h.app.inject({ method: 'POST', url: '/magapi/module_switch', payload: { module: 'tamper', status: 1 }, headers: { ...auth(token), ...en } })).json();
    expect(res.code).toBe(1);
    expect(res.msg).toMatch(/not connected/);
    const { startAgent } = await import('@rampart/agent');
    const { join } = await import('node:path');
    const agent = await startAgent({
      socketPath: h.agent!.socketPath, stateDir: join(h.dir, 'agent'), log: () => {},
      executors: { restartSoftware: async () => {}, rebootServer: async () => {} },
      firewall: { nft: null, background: false, sensors: { journal: false } },
    });
    try {
      expect(await reconcileModules(h.console.ctx)).toBe('pushed');
      expect((await h.agentClient.call('module.list', {})).tamper).toBe(1);
      expect(await reconcileModules(h.console.ctx)).toBe('in_sync');
    } finally {
      await agent.close();
    }
  });
});

describe('restart and reboot', () => {
  it('asks the agent to restart the software or reboot the server (a recording executor, never a real reboot)', async () => {
    const soft = (await h.app.inject({ method: 'POST', url: '/magapi/restart?t=1', headers: { ...auth(token), ...en } })).json();
    expect(soft).toMatchObject({ code: 0, msg: 'The software is restarting, please wait' });
    const hard = (await h.app.inject({ method: 'POST', url: '/magapi/restart?t=2', headers: { ...auth(token), ...en } })).json();
    expect(hard.msg).toBe('The server is rebooting, please wait');
    await new Promise((r) => setTimeout(r, 100));
    expect(h.executed).toEqual(['restart', 'reboot']);
  });

  it('says so when the agent cannot be reached', async () => {
    await h.agent!.close();
    const res = (await h.app.inject({ method: 'POST', url: '/magapi/restart?t=1', headers: { ...auth(token), ...en } })).json();
    expect(res).toMatchObject({ code: 2, msg: 'The protection service is not connected' });
  });
});

describe('response headers', () => {
  it('sends security headers and no caching of API answers', async () => {
    const res = await h.app.inject({ url: '/magapi/login' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
