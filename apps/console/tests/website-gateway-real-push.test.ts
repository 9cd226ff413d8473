import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultWebsiteSettings } from '@rampart/contracts';
import { magapi, startHarness, type Harness } from './support/harness.ts';

/*
 * The console against the real gateway (apps/gateway/src/main.ts, one worker): switching the
 * website module off, pausing system protection, turning a site off and saving a settings tab
 * reach the gateway by the change's own push. The harness runs no periodic check at all
 * (background: false), so nothing else can make the attack pass — before the push, a module switch
 * or a pause waited for the periodic check (every 5 s) and this test failed. The time from the
 * change to the effect is printed: it is the gateway's reload (a worker start), about 1 s on a quiet
 * machine; it is not asserted, since on a shared machine a worker start alone can take seconds.
 */

let h: Harness;
let token: string;
let gateway: ChildProcess;
let origin: http.Server;
let listenPort: number;
let siteId: number;
let stderr = '';
const main = join(import.meta.dirname, '..', '..', 'gateway', 'src', 'main.ts');
const call = (method: 'GET' | 'POST', url: string, payload?: unknown) => magapi(h.app, method, url, { token, payload });
/** The old way's delay before it even wrote the file: the periodic policy check ran every 5 s. */
const oldTickMs = 5000;
const attack = '/search?q=%3Cscript%3Ealert(document.cookie)%3C%2Fscript%3E';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The attack's status on a fresh connection (a kept-alive one may get one last answer from the
 * generation being replaced). A connection made while the new worker starts waits for it: on a
 * loaded machine that took over 3 s once, so an answer gets 10 s before it counts as none.
 */
const status = (path: string) =>
  new Promise<number>((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port: listenPort, path, agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    request.on('timeout', () => request.destroy(new Error(`no answer to ${path} in 10 s; gateway stderr: ${stderr}`)));
    request.on('error', reject);
  });

/**
 * Makes a change and answers how long it took until the attack got `expected`. Nothing runs the
 * periodic check here, so only the change's own push can do it: without it the attack never changes.
 * The route answers before the push is done (services/policy-signal.ts): the effect comes a moment
 * after the answer, the gateway's reload.
 */
async function timeUntil(change: () => Promise<{ body: { code: number } }>, expected: number): Promise<number> {
  const started = performance.now();
  const res = await change();
  expect(res.body.code, `${JSON.stringify(res.body)} ${stderr}`).toBe(0);
  for (;;) {
    if ((await status(attack)) === expected) break;
    if (performance.now() - started > 3 * oldTickMs) throw new Error(`the attack never got ${expected}; gateway stderr: ${stderr}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const ms = performance.now() - started;
  process.stdout.write(`change to ${expected} seen after ${Math.round(ms)} ms (the periodic check: up to ${oldTickMs} ms before it wrote)\n`);
  return ms;
}

beforeAll(async () => {
  h = await startHarness();
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
  origin = http.createServer((req, res) => res.end(`origin saw ${req.url}`));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  const originPort = (origin.address() as net.AddressInfo).port;
  listenPort = await freePort();
  expect((await call('POST', '/module_switch', { module: 'website', status: 1 })).body.code).toBe(0);
  // Loose: strict (the default) also refuses a Host that is an IP address, which is what these requests send.
  expect((await call('POST', '/website/base', { ...defaultWebsiteSettings.base, block_mode: 'loose' })).body.code).toBe(0);
  const site = { name: 'Push', status: 'on', running: true, listen: [{ address: '127.0.0.1', port: listenPort, tls: false }], server_names: [], upstreams: [`http://127.0.0.1:${originPort}`], tls_cert: '', tls_key: null, trusted_proxies: [] };
  const added = await call('POST', '/website/server', site);
  expect(added.body.code).toBe(0);
  siteId = added.body.data.id as number;
  const adminSocket = join(h.dir, 'run', 'gateway.sock');
  mkdirSync(join(h.dir, 'run'), { recursive: true });
  gateway = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', main, '--config', join(h.dir, 'gateway', 'gateway.json'), '--admin-socket', adminSocket, '--workers', '1'], { stdio: ['ignore', 'ignore', 'pipe'] });
  gateway.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (let i = 0; i < 200 && !existsSync(adminSocket); i++) await new Promise((r) => setTimeout(r, 50));
  for (let i = 0; i < 100; i++) {
    if ((await status('/hello').catch(() => 0)) === 200) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  // Warm-up, so the timings below measure the push and not one-time costs of a fresh gateway: the
  // first attack's event makes the primary build its geo-IP cache (seconds on a busy machine, during
  // which it answers no reload), and the first reload starts a worker from cold.
  expect(await status(attack), stderr).toBe(403);
  for (let i = 0; i < 600 && !stderr.includes('geo-IP cache'); i++) await new Promise((r) => setTimeout(r, 50));
  expect((await call('POST', '/website/base', { ...defaultWebsiteSettings.base, block_mode: 'loose' })).body, stderr).toMatchObject({ code: 0, data: { gateway: { state: 'reloaded' } } });
}, 60_000);
afterAll(async () => {
  if (gateway && gateway.exitCode === null) {
    const exited = new Promise((r) => gateway.once('exit', r));
    gateway.kill('SIGTERM');
    await exited;
  }
  await new Promise((resolve) => origin.close(resolve));
  await h.close();
});

describe('a change that affects the gateway reaches it at once', () => {
  it('the website module switched off lets the attack through to the origin, switched on blocks it again', async () => {
    expect(await status(attack), stderr).toBe(403);
    await timeUntil(() => call('POST', '/module_switch', { module: 'website', status: 0 }), 200);
    // Still proxied: off means nothing inspected, not the site gone.
    expect(await (await fetch(`http://127.0.0.1:${listenPort}/hello`)).text()).toBe('origin saw /hello');
    await timeUntil(() => call('POST', '/module_switch', { module: 'website', status: 1 }), 403);
  }, 60_000);

  it('protection paused in the system basic tab lets it through, resumed blocks it again', async () => {
    await timeUntil(() => call('POST', '/system/basic/protection', { mode: 'temp_off', minutes: 5 }), 200);
    await timeUntil(() => call('POST', '/system/basic/protection', { mode: 'on' }), 403);
  }, 60_000);

  it('the site status and a settings tab do too', async () => {
    await timeUntil(() => call('POST', '/website/server_status', { ids: [siteId], status: 'off' }), 200);
    await timeUntil(() => call('POST', '/website/server_status', { ids: [siteId], status: 'on' }), 403);
    await timeUntil(() => call('POST', '/website/lists', { ...defaultWebsiteSettings.lists, url_white: { enabled: true, entries: ['/search'] } }), 200);
    await timeUntil(() => call('POST', '/website/lists', defaultWebsiteSettings.lists), 403);
  }, 60_000);
});
