import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsole } from '../src/app.ts';
import { setSetting } from '../src/db/settings.ts';
import { startPanelListener, type PanelListener } from '../src/portal/listener.ts';
import { portalRuntime } from '../src/portal/runtime.ts';
import { startHarness, type Harness } from './support/harness.ts';
import { makeCert } from './support/portal-certs.ts';

/* The console's own listener on real loopback ports: moving it, HTTPS, and the gate over real HTTP. */

let h: Harness;
let token: string;
let listener: PanelListener;
let envPort: number;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request on a fresh connection (no pooling across listener moves). */
function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: unknown; ca?: string } = {}): Promise<Answer> {
  const target = new URL(url);
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const make = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = make(target, {
      method: options.method ?? 'GET',
      agent: false,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...options.headers },
      ...(options.ca ? { ca: options.ca } : {}),
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.setTimeout(3000, () => req.destroy(new Error('timeout')));
    req.end(body);
  });
}

const reachable = (url: string, ca?: string) => send(url, { ca }).then(() => true, () => false);

async function eventually(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function portalForm(base: string, ca?: string, headers: Record<string, string> = {}) {
  const res = await send(`${base}/magapi/system/portal`, { headers: { authorization: `Bearer ${token}`, ...headers }, ca });
  const view = JSON.parse(res.body).data;
  return {
    port: view.port, safe_entry: view.safe_entry, domain: view.domain, https: { enabled: view.https.enabled, cert: view.https.cert, key: '' },
    authorized: view.authorized, login_notice: view.login_notice, login_check_mode: view.login_check_mode,
    login_error_count: view.login_error_count, session_timeout: view.session_timeout, confirm: true,
  };
}

async function savePortal(base: string, body: unknown, ca?: string, headers: Record<string, string> = {}) {
  const res = await send(`${base}/magapi/system/portal`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-US', ...headers }, body, ca });
  return JSON.parse(res.body) as { code: number; msg: string; data: { restart: { target: string; probe: string } | null } };
}

beforeAll(async () => {
  h = await startHarness();
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
  envPort = await freePort();
  listener = await startPanelListener(h.app, h.console.ctx, { host: '127.0.0.1', envPort, log: () => {} });
});
afterAll(async () => {
  await listener.close();
  await h.close();
});

describe('the panel listener', () => {
  let port: number;

  it('starts on RAMPART_PORT while no port is saved', async () => {
    expect(listener.url()).toBe(`http://127.0.0.1:${envPort}`);
    const info = await send(`${listener.url()}/magapi/info`, { headers: { authorization: `Bearer ${token}` } });
    expect(info.status).toBe(200);
    port = envPort;
  });

  it('moves to a new port after answering: the old port closes, the new one answers, the websocket too', async () => {
    const next = await freePort();
    const old = `http://127.0.0.1:${port}`;
    // A websocket open on the old listener is closed by the move, not left hanging.
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, [token]);
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = reject;
    });
    const closed = new Promise((resolve) => (ws.onclose = resolve));
    const saved = await savePortal(old, { ...(await portalForm(old)), port: next });
    expect(saved.code).toBe(0);
    expect(saved.data.restart).toEqual({ target: `http://127.0.0.1:${next}/`, probe: `ws://127.0.0.1:${next}/ws` });
    await eventually(async () => !(await reachable(`${old}/magapi/login`)));
    await closed;
    const moved = await send(`http://127.0.0.1:${next}/magapi/info`, { headers: { authorization: `Bearer ${token}` } });
    expect(moved.status).toBe(200);
    expect(listener.url()).toBe(`http://127.0.0.1:${next}`);
    // The probe the browser polls: the websocket on the new address, with the session's token.
    const probe = new WebSocket(saved.data.restart!.probe, [token]);
    await new Promise((resolve, reject) => {
      probe.onopen = resolve;
      probe.onerror = reject;
    });
    probe.close();
    port = next;
  });

  it('refuses a port in use and stays put', async () => {
    const base = `http://127.0.0.1:${port}`;
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const taken = (holder.address() as { port: number }).port;
    try {
      const saved = await savePortal(base, { ...(await portalForm(base)), port: taken });
      expect(saved).toMatchObject({ code: 2, msg: `Port ${taken} is in use by another program; choose another port` });
      expect(await reachable(`${base}/magapi/login`)).toBe(true);
    } finally {
      holder.close();
    }
  });

  it('the safe entry and the bound domain turn away real requests with a bare 404, loopback included', async () => {
    const base = `http://127.0.0.1:${port}`;
    const saved = await savePortal(base, { ...(await portalForm(base)), safe_entry: 'gate-778899', domain: 'panel.test' }, undefined, { host: `panel.test:${port}` });
    expect(saved.code).toBe(0);
    expect(saved.data.restart!.target).toBe(`http://panel.test:${port}/gate-778899`);
    const host = { host: `panel.test:${port}` };
    const missing = await send(`${base}/magapi/info`, { headers: { ...host, authorization: `Bearer ${token}` } });
    expect(missing.status).toBe(404);
    expect(missing.body).not.toMatch(/code|magapi/);
    const entry = await send(`${base}/gate-778899`, { headers: host });
    expect(entry.status).toBe(302);
    const cookie = String(entry.headers['set-cookie']).split(';')[0]!;
    expect((await send(`${base}/magapi/info`, { headers: { ...host, cookie, authorization: `Bearer ${token}` } })).status).toBe(200);
    // The right cookie under another name for the server: still nothing.
    expect((await send(`${base}/magapi/info`, { headers: { cookie, authorization: `Bearer ${token}` } })).status).toBe(404);
    expect((await send(`${base}/gate-778899`)).status).toBe(404);
    // The websocket without the entry: refused at once (not left hanging), and the socket is not upgraded.
    const refused = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, [token]);
      ws.onopen = () => resolve('open');
      ws.onerror = () => resolve('refused');
      setTimeout(() => resolve('hanging'), 3000);
    });
    expect(refused).toBe('refused');

    // Loopback passes the authorized-IP check even when the list names other addresses only.
    const only = await savePortal(base, { ...(await portalForm(base, undefined, { ...host, cookie })), authorized: { enabled: true, ips: ['198.51.100.0/24'], areas: [] } }, undefined, { ...host, cookie });
    expect(only.code).toBe(0);
    expect((await send(`${base}/magapi/info`, { headers: { ...host, cookie, authorization: `Bearer ${token}` } })).status).toBe(200);
    const cleared = await savePortal(base, { ...(await portalForm(base, undefined, { ...host, cookie })), safe_entry: '', domain: '', authorized: { enabled: false, ips: [], areas: [] } }, undefined, { ...host, cookie });
    expect(cleared.code).toBe(0);
    expect((await send(`${base}/magapi/info`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it('switches to HTTPS on the same port with an openssl certificate, and back', async () => {
    const base = `http://127.0.0.1:${port}`;
    const pair = makeCert('127.0.0.1', ['127.0.0.1', 'localhost']);
    const saved = await savePortal(base, { ...(await portalForm(base)), https: { enabled: true, cert: pair.cert, key: pair.key } });
    expect(saved.code).toBe(0);
    expect(saved.data.restart!.target).toBe(`https://127.0.0.1:${port}/`);
    const secure = `https://127.0.0.1:${port}`;
    await eventually(() => reachable(`${secure}/magapi/login`, pair.cert));
    const info = await send(`${secure}/magapi/info`, { headers: { authorization: `Bearer ${token}` }, ca: pair.cert });
    expect(info.status).toBe(200);
    // Plain HTTP on the port now meets TLS.
    expect((await send(`${base}/magapi/login`).then((r) => r.status, () => 'refused'))).not.toBe(200);
    // The certificate is checked by the client as the real one (a different CA is refused).
    const stranger = makeCert('127.0.0.1');
    expect(await reachable(`${secure}/magapi/login`, stranger.cert)).toBe(false);

    const off = await savePortal(secure, { ...(await portalForm(secure, pair.cert)), https: { enabled: false, cert: '', key: '' } }, pair.cert);
    expect(off.code).toBe(0);
    await eventually(() => reachable(`${base}/magapi/login`));
    expect((await send(`${base}/magapi/info`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it('after a restart the saved port wins over RAMPART_PORT; a saved port that is taken falls back to RAMPART_PORT', async () => {
    await listener.close();
    expect(await reachable(`http://127.0.0.1:${port}/magapi/login`)).toBe(false);
    const otherEnv = await freePort();
    listener = await startPanelListener(h.app, h.console.ctx, { host: '127.0.0.1', envPort: otherEnv, log: () => {} });
    expect(listener.url()).toBe(`http://127.0.0.1:${port}`);
    await listener.close();

    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      listener = await startPanelListener(h.app, h.console.ctx, { host: '127.0.0.1', envPort: otherEnv, log: () => {} });
      expect(listener.url()).toBe(`http://127.0.0.1:${otherEnv}`);
    } finally {
      holder.close();
    }
  });
});

describe('authorized areas', () => {
  it('an address in an authorized area passes; others get the bare 404', async () => {
    const dir = h.dir;
    const c = await buildConsole({
      db: `${dir}/areas.db`, agent: { call: async () => { throw new Error('no agent'); } } as never, licenceUrl: 'http://127.0.0.1:9',
      background: false, webDir: `${dir}/no-web`,
      portal: { areaOf: (ip) => (ip.startsWith('192.0.2.') ? ['JP'] : ip.startsWith('198.51.100.') ? ['CN', 'CN-GD'] : []) },
    });
    try {
      setSetting(c.ctx.db, 'panel_authorized', { enabled: true, ips: [], areas: ['CN-GD'] });
      portalRuntime(c.ctx).reloadGate();
      // Unregistered: a request that passes the gate meets the 503 envelope; one that does not, the bare 404.
      const status = async (remoteAddress: string) => (await c.app.inject({ method: 'GET', url: '/magapi/info', remoteAddress })).statusCode;
      expect(await status('198.51.100.3')).toBe(503);
      expect(await status('192.0.2.3')).toBe(404);
      expect(await status('127.0.0.1')).toBe(503);
      setSetting(c.ctx.db, 'panel_authorized', { enabled: true, ips: [], areas: ['JP'] });
      portalRuntime(c.ctx).reloadGate();
      expect(await status('192.0.2.3')).toBe(503);
      expect(await status('198.51.100.3')).toBe(404);
    } finally {
      await c.close();
    }
  });
});
