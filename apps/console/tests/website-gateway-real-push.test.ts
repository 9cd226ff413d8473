import http from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultWebsiteSettings } from '@rampart/contracts';
import { magapi, startHarness, type Harness } from './support/harness.ts';
import { freePort, startEchoOrigin, startRealGateway, type RealGateway } from './support/real-gateway.ts';

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
let gateway: RealGateway;
let origin: { port: number; close: () => Promise<void> };
let listenPort: number;
let siteId: number;
const call = (method: 'GET' | 'POST', url: string, payload?: unknown) => magapi(h.app, method, url, { token, payload });
/** The old way's delay before it even wrote the file: the periodic policy check ran every 5 s. */
const oldTickMs = 5000;
const attack = '/search?q=%3Cscript%3Ealert(document.cookie)%3C%2Fscript%3E';

/**
 * The attack's status on a fresh connection (a kept-alive one may get one last answer from the
 * generation being replaced). No answer in 10 s fails the test: that was a connection the primary
 * handed to a worker the reload was retiring, lost when the worker exited first (fixed in
 * apps/gateway/src/worker-main.ts, releasedByPrimary; about one change in ten lost one before).
 */
const status = (path: string) =>
  new Promise<number>((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port: listenPort, path, agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    request.on('timeout', () => request.destroy(new Error(`no answer to ${path} in 10 s; gateway stderr: ${gateway.stderr()}`)));
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
  expect(res.body.code, `${JSON.stringify(res.body)} ${gateway.stderr()}`).toBe(0);
  for (;;) {
    if ((await status(attack)) === expected) break;
    if (performance.now() - started > 6 * oldTickMs) throw new Error(`the attack never got ${expected}; gateway stderr: ${gateway.stderr()}`);
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
  origin = await startEchoOrigin();
  const originPort = origin.port;
  listenPort = await freePort();
  expect((await call('POST', '/module_switch', { module: 'website', status: 1 })).body.code).toBe(0);
  // Loose: strict (the default) also refuses a Host that is an IP address, which is what these requests send.
  expect((await call('POST', '/website/base', { ...defaultWebsiteSettings.base, block_mode: 'loose' })).body.code).toBe(0);
  const site = { name: 'Push', status: 'on', running: true, listen: [{ address: '127.0.0.1', port: listenPort, tls: false }], server_names: [], upstreams: [`http://127.0.0.1:${originPort}`], tls_cert: '', tls_key: null, trusted_proxies: [] };
  const added = await call('POST', '/website/server', site);
  expect(added.body.code).toBe(0);
  siteId = added.body.data.id as number;
  gateway = await startRealGateway(join(h.dir, 'gateway', 'gateway.json'), join(h.dir, 'run', 'gateway.sock'));
  for (let i = 0; i < 100; i++) {
    if ((await status('/hello').catch(() => 0)) === 200) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  // Warm-up, so the timings below measure the push and not one-time costs of a fresh gateway: the
  // first attack's event makes the primary build its geo-IP cache (seconds on a busy machine, during
  // which it answers no reload), and the first reload starts a worker from cold.
  expect(await status(attack), gateway.stderr()).toBe(403);
  for (let i = 0; i < 600 && !gateway.stderr().includes('geo-IP cache'); i++) await new Promise((r) => setTimeout(r, 50));
  expect((await call('POST', '/website/base', { ...defaultWebsiteSettings.base, block_mode: 'loose' })).body, gateway.stderr()).toMatchObject({ code: 0, data: { gateway: { state: 'reloaded' } } });
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await origin?.close();
  await h.close();
});

describe('a change that affects the gateway reaches it at once', () => {
  it('the website module switched off lets the attack through to the origin, switched on blocks it again', async () => {
    expect(await status(attack), gateway.stderr()).toBe(403);
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

  it('the trojan custom library saved in the trojan page reaches the upload scan, and clearing it lets the file through', async () => {
    // Harmless text to the built-in rules and the analysis: only the administrator's rule flags it.
    const boundary = '----pushLibrary';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\nQuarterly notes: ACME-IMPLANT-7731 seen on host 12.\r\n--${boundary}--\r\n`;
    const upload = async () => {
      const res = await fetch(`http://127.0.0.1:${listenPort}/upload`, { method: 'POST', body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, connection: 'close' } });
      await res.arrayBuffer();
      return res.status;
    };
    const until = async (expected: number) => {
      const started = performance.now();
      while ((await upload()) !== expected) {
        if (performance.now() - started > 6 * oldTickMs) throw new Error(`the upload never got ${expected}; gateway stderr: ${gateway.stderr()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    expect(await upload()).toBe(200);
    const rules = 'rule acme_implant {\n  strings:\n    $a = "ACME-IMPLANT-7731"\n  condition:\n    $a\n}\n';
    expect((await call('POST', '/trojan/library', { library: { rules, hashes: [] } })).body.code).toBe(0);
    await until(403);
    expect((await call('POST', '/trojan/library', { library: { rules: '', hashes: [] } })).body.code).toBe(0);
    await until(200);
  }, 60_000);
});
