import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultWebsiteSettings } from '@rampart/contracts';
import { magapi, startHarness, type Harness } from './support/harness.ts';
import { freePort, startEchoOrigin, startRealGateway, type RealGateway } from './support/real-gateway.ts';

/*
 * The console against the real gateway (apps/gateway/src/main.ts, one worker): the policy file it
 * writes is taken, an attack is blocked, its event is drained into the event log and the photo
 * log, and an address put on the interception list by hand is refused at once, without a reload.
 */

let h: Harness;
let token: string;
let gateway: RealGateway;
let origin: { port: number; close: () => Promise<void> };
let listenPort: number;
const call = (method: 'GET' | 'POST', url: string, payload?: unknown, lang: 'en-US' | 'zh-CN' = 'en-US') => magapi(h.app, method, url, { token, payload, lang });

beforeAll(async () => {
  h = await startHarness();
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
  origin = await startEchoOrigin();
  const originPort = origin.port;
  listenPort = await freePort();
  expect((await call('POST', '/module_switch', { module: 'website', status: 1 })).body.code).toBe(0);
  // Loose: strict (the default) also refuses a Host that is an IP address, which is what these requests send.
  const base = { ...defaultWebsiteSettings.base, block_mode: 'loose' as const, snapshot: { enabled: true, retention_days: 7 } };
  expect((await call('POST', '/website/base', base)).body.code).toBe(0);
  const site = { name: 'Real', status: 'on', running: true, listen: [{ address: '127.0.0.1', port: listenPort, tls: false }], server_names: [], upstreams: [`http://127.0.0.1:${originPort}`], tls_cert: '', tls_key: null, trusted_proxies: [] };
  expect((await call('POST', '/website/server', site)).body.code).toBe(0);
  gateway = await startRealGateway(join(h.dir, 'gateway', 'gateway.json'), join(h.dir, 'run', 'gateway.sock'));
}, 30_000);
afterAll(async () => {
  await gateway?.stop();
  await origin?.close();
  await h.close();
});

const get = async (path: string) => {
  const res = await fetch(`http://127.0.0.1:${listenPort}${path}`);
  return { status: res.status, text: await res.text() };
};

/**
 * Drains until the log shows an event that `match` accepts (workers report to the primary in batches,
 * and the primary holds the first events while it writes its geo-IP cache: seconds on a busy machine).
 */
async function drainUntil(match: (row: { content: string; ip: string }) => boolean): Promise<{ content: string; ip: string }[]> {
  for (let i = 0; i < 200; i++) {
    await h.console.website.poller.drainOnce();
    await h.console.ctx.events.flush();
    const rows = (await call('GET', '/log/system?module=website&size=100')).body.data.list as { content: string; ip: string }[];
    if (rows.some(match)) return rows;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no such event drained; gateway stderr: ${gateway.stderr()}`);
}

describe('the console with the real gateway', () => {
  it('blocks an attack with the policy it wrote, and the drained event reaches the event and photo logs', async () => {
    expect(await get('/hello?x=1'), gateway.stderr()).toEqual({ status: 200, text: 'origin saw /hello?x=1' });
    expect((await get('/search?q=%3Cscript%3Ealert(document.cookie)%3C%2Fscript%3E')).status).toBe(403);
    const rows = await drainUntil((r) => r.content.includes('attack on site "Real" blocked'));
    expect(rows.find((r) => r.content.includes('attack on site "Real" blocked'))!.content).toBe('127.0.0.1: cross-site scripting (XSS) attack on site "Real" blocked');
    const photos = (await call('GET', '/log/photo')).body.data.list as { site: string; url: string; kind: string }[];
    expect(photos).toContainEqual(expect.objectContaining({ site: 'Real', url: '/search?q=%3Cscript%3Ealert(document.cookie)%3C%2Fscript%3E', kind: 'website.attack' }));
  }, 30_000);

  it('refuses an upload the web-shell engine flags (PHP hidden in an image past the WAF\'s file head) and logs it as a web shell upload', async () => {
    const boundary = '----realGatewayScan';
    const image = Buffer.concat([Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'), Buffer.alloc(100_000, 0x41), Buffer.from("<?php system($_GET['x']); ?>")]);
    const body = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="cat.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), image, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const res = await fetch(`http://127.0.0.1:${listenPort}/upload`, { method: 'POST', body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(res.status, gateway.stderr()).toBe(403);
    const rows = await drainUntil((r) => r.content.includes('web shell upload attack'));
    expect(rows.find((r) => r.content.includes('web shell upload attack'))!.content).toBe('127.0.0.1: web shell upload attack on site "Real" blocked');
  }, 30_000);

  it('refuses an address put on the interception list by hand at once, and lets it in again when removed', async () => {
    const added = await call('POST', '/website/intercept_list', { ips: ['127.0.0.1'], minutes: 5, remark: 'by hand' });
    expect(added.body, gateway.stderr()).toMatchObject({ code: 0, data: { gateway: { state: 'sent' } } });
    expect((await get('/hello')).status).toBe(403);
    const removed = await call('POST', '/website/intercept_list_delete', { ips: ['127.0.0.1'] });
    expect(removed.body).toMatchObject({ code: 0, data: { deleted: 1, gateway: { state: 'sent' } } });
    expect(await get('/hello')).toEqual({ status: 200, text: 'origin saw /hello' });
    // No reload happened: the first generation still serves.
    expect(gateway.stderr()).not.toContain('generation 2');
  }, 30_000);
});
