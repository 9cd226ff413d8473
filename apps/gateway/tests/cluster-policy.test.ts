import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatewayEventDrain, WebsiteInterceptEntry } from '@rampart/contracts';
import { writeTestGeoData } from '@rampart/geoip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommand } from '../src/admin-socket.ts';
import { reverseName, startDnsServer, type TestDnsServer } from './harness/dns-server.ts';
import { freePort, request, startEchoServer, waitForPort } from './harness/origin.ts';
import { stopGatewayProcess } from './harness/gateway-process.ts';

/*
 * The policy's shared state in a real cluster: main.ts as its own process with 2 workers, the
 * test inspector harness/services-inspector.ts driving the workers' cluster services (counts,
 * timed lists, events), steered through the admin socket.
 */
const main = join(import.meta.dirname, '..', 'src', 'main.ts');
const servicesInspector = join(import.meta.dirname, 'harness', 'services-inspector.ts');

interface Status { ok: boolean; generation: number; workers: number[] }
type Answer = { status: number; worker: string; generation: string };

describe('gateway cluster: shared counts, timed lists, events', () => {
  let echo: Awaited<ReturnType<typeof startEchoServer>>;
  let gateway: ChildProcess;
  let dir: string;
  let port: number;
  let adminPath: string;
  let stderr = '';
  let dns: TestDnsServer;

  const admin = (command: string) => adminCommand(adminPath, command);
  const status = async () => (await admin('status')) as Status;
  const drain = async () => (await admin('events')) as GatewayEventDrain;
  /** A request on a fresh connection (so the primary hands it to the next worker) from `ip`. */
  const get = async (ip: string, headers: Record<string, string> = {}, agent: http.Agent | false = false): Promise<Answer> => {
    const r = await request({ host: '127.0.0.1', port, path: '/index', agent, headers: { 'x-forwarded-for': ip, ...headers } });
    const [worker = '', generation = ''] = String(r.headers['x-rampart-worker']).split('/');
    return { status: r.status, worker, generation };
  };
  let probes = 0;
  /**
   * Requests on fresh connections until both workers have answered `times` times each. A blocked
   * answer names no worker, so each request carries `x-probe` and the worker is read from its event.
   */
  const fromEveryWorker = async (ip: string, times = 3, headers: Record<string, string> = {}): Promise<Answer[]> => {
    const answers: Answer[] = [];
    const st = await status();
    for (let round = 0; round < 6; round++) {
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        const id = `p${++probes}`;
        ids.push(id);
        const a = await get(ip, { ...headers, 'x-probe': id });
        answers.push({ ...a, id } as Answer & { id: string });
      }
      const seen = new Map<string, string>();
      for (let i = 0; i < 30 && ids.some((id) => !seen.has(id)); i++) {
        await sleep(50);
        for (const e of (await drain()).events) if (e.rule === 'test.probe') seen.set(e.incident_id, e.name ?? '');
      }
      for (const a of answers as (Answer & { id: string })[]) {
        const [worker = '', generation = ''] = (seen.get(a.id) ?? '/').split('/');
        if (worker) Object.assign(a, { worker, generation });
      }
      if (st.workers.every((pid) => answers.filter((a) => a.worker === String(pid)).length >= times)) return answers;
    }
    throw new Error(`not every worker answered: ${JSON.stringify(answers)}`);
  };
  const entry = (ip: string, minutes = 30): WebsiteInterceptEntry => ({ ip, created_at: Date.now(), expires_at: Date.now() + minutes * 60_000, detail: 'by hand', reason: 'manual' });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  beforeAll(async () => {
    echo = await startEchoServer();
    dns = await startDnsServer({
      [reverseName('66.249.66.1')]: { PTR: ['crawl-66-249-66-1.googlebot.com'] },
      'crawl-66-249-66-1.googlebot.com': { A: ['66.249.66.1'] },
      [reverseName('203.0.113.7')]: { PTR: ['crawl-66-249-66-1.googlebot.com'] },
    });
    dir = mkdtempSync(join(tmpdir(), 'gw-cluster-policy-'));
    const geoDir = join(dir, 'geo');
    writeTestGeoData(geoDir, { v4: [['10.77.0.0', '10.77.255.255', 'JP']] });
    const configPath = join(dir, 'gateway.json');
    adminPath = join(dir, 'admin.sock');
    port = await freePort();
    writeFileSync(configPath, JSON.stringify({
      workers: 2,
      timeouts: { idle_ms: 5_000 },
      sites: [{ id: 'shop', name: 'Shop', status: 'on', listen: [{ address: '127.0.0.1', port }], upstreams: [{ url: `http://127.0.0.1:${echo.port}` }], trusted_proxies: ['127.0.0.1'] }],
    }));
    gateway = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', main, '--config', configPath, '--admin-socket', adminPath,
      '--inspector', servicesInspector, '--expose-worker', '--drain-grace-ms', '3000', '--max-events', '20', '--geoip-data', geoDir, '--dns-server', `127.0.0.1:${dns.port}`], { stdio: ['ignore', 'ignore', 'pipe'] });
    gateway.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    await waitForPort(port, 20_000);
    for (let i = 0; i < 100; i++) {
      try {
        if ((await status()).workers.length === 2) break;
      } catch {
        // admin socket not yet open
      }
      await sleep(50);
    }
  });
  afterAll(async () => {
    await stopGatewayProcess(gateway);
    await echo?.close();
    await dns?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('drains events oldest first, fills in the area, and reports the ones a full buffer lost', async () => {
    await drain();
    // One keep-alive connection: one worker, so one order.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 5; i++) expect((await get('10.77.0.5', { 'x-emit': `a${i}` }, agent)).status).toBe(200);
    const events: GatewayEventDrain['events'] = [];
    for (let i = 0; i < 40 && events.length < 5; i++) {
      await sleep(100);
      events.push(...(await drain()).events.filter((e) => e.rule === 'test.emit'));
    }
    expect(events.map((e) => e.incident_id)).toEqual(['a0', 'a1', 'a2', 'a3', 'a4']);
    expect(events[0]).toMatchObject({ client_ip: '10.77.0.5', area: 'JP', site_id: 'shop', target: '/index' });
    // 30 into a buffer of 20 (--max-events): the 10 oldest are lost, and said so once.
    for (let i = 0; i < 30; i++) await get('10.1.0.5', { 'x-emit': `b${i}` }, agent);
    agent.destroy();
    await sleep(600);
    const full = await drain();
    expect(full.events.map((e) => e.incident_id)).toEqual(Array.from({ length: 20 }, (_, i) => `b${i + 10}`));
    expect(full.dropped).toBe(10);
    expect(full.more).toBe(false);
    expect(full.events[0]?.area).toBeNull();
    expect(await drain()).toEqual({ ok: true, events: [], dropped: 0, more: false });
  });

  it('sums counts across workers: spread requests are caught before either worker alone passes the threshold', async () => {
    const threshold = 20;
    const perWorker = new Map<string, number>();
    let blockedAt = 0;
    for (let i = 1; i <= 60 && !blockedAt; i++) {
      const a = await get('10.2.0.1', { 'x-cc': String(threshold) });
      if (a.status === 403) blockedAt = i;
      else {
        expect(a.status).toBe(200);
        perWorker.set(a.worker, (perWorker.get(a.worker) ?? 0) + 1);
      }
      await sleep(25);
    }
    expect(perWorker.size).toBe(2);
    expect(blockedAt).toBeGreaterThan(threshold);
    // Neither worker had counted more than the threshold itself (the blocked request is one more
    // on one of them): the block came from the cluster's sum.
    for (const n of perWorker.values()) expect(n + 1).toBeLessThanOrEqual(threshold);
    // Once over, every worker says so.
    for (const a of await fromEveryWorker('10.2.0.1', 3, { 'x-cc': String(threshold) })) expect(a.status).toBe(403);
    // Another address is not affected.
    expect((await get('10.2.0.2', { 'x-cc': String(threshold) })).status).toBe(200);
  });

  it('puts an address added over the admin socket on every worker, and a removal lifts it everywhere', async () => {
    expect(await admin(`timed ${JSON.stringify({ op: 'add', list: 'intercepted', entries: [entry('10.3.0.1'), entry('10.3.0.2')] })}`)).toEqual({ ok: true });
    for (const a of await fromEveryWorker('10.3.0.1')) expect(a.status).toBe(403);
    expect((await get('10.3.0.9')).status).toBe(200);
    expect(await admin(`timed ${JSON.stringify({ op: 'remove', list: 'intercepted', ips: ['10.3.0.1'] })}`)).toEqual({ ok: true });
    for (const a of await fromEveryWorker('10.3.0.1')) expect(a.status).toBe(200);
    for (const a of await fromEveryWorker('10.3.0.2')) expect(a.status).toBe(403);
  });

  it('relays an interception a worker made to the other worker', async () => {
    expect((await get('10.4.0.1', { 'x-intercept': '30' })).status).toBe(403);
    await sleep(100);
    for (const a of await fromEveryWorker('10.4.0.1')) expect(a.status).toBe(403);
  });

  it('keeps the runtime changes through a reload (the file knows none of them)', async () => {
    const before = await status();
    const reloaded = (await admin('reload')) as { ok: boolean; generation: number };
    expect(reloaded).toMatchObject({ ok: true, generation: before.generation + 1 });
    await sleep(200);
    const answers = [...(await fromEveryWorker('10.3.0.2')), ...(await fromEveryWorker('10.4.0.1'))];
    for (const a of answers) {
      expect(a.generation).toBe(String(before.generation + 1));
      expect(a.status).toBe(403);
    }
    // The removal stays a removal.
    for (const a of await fromEveryWorker('10.3.0.1')) expect(a.status).toBe(200);
  });

  it('refuses bad timed lines and changes nothing; takes 10,000 entries in one line', { timeout: 60_000 }, async () => {
    const refused = async (line: string) => {
      const answer = (await admin(line)) as { ok: boolean; reason?: string };
      expect(answer.ok).toBe(false);
      return answer.reason ?? '';
    };
    expect(await refused('timed {not json')).toContain('not JSON');
    expect(await refused(`timed ${JSON.stringify({ op: 'nuke', list: 'intercepted', ips: ['10.5.0.1'] })}`)).toContain('timed');
    expect(await refused(`timed ${JSON.stringify({ op: 'add', list: 'intercepted', entries: [{ ...entry('10.5.0.1'), ip: 'not-an-address' }] })}`)).toContain('not an address');
    expect(await refused(`timed ${JSON.stringify({ op: 'add', list: 'intercepted', entries: [entry('10.5.0.1'), { ...entry('10.5.0.2'), reason: 'password' }] })}`)).toContain('authorization reason');
    expect(await refused(`timed ${JSON.stringify({ op: 'remove', list: 'intercepted', ips: [] })}`)).toContain('timed');
    expect(await refused('timed')).toContain('unknown command');
    expect(await refused('drop tables')).toContain('unknown command');
    // A long line that is not `timed` is garbage: the connection is closed without an answer.
    await expect(admin('x'.repeat(10_000))).rejects.toThrow();
    for (const a of await fromEveryWorker('10.5.0.1', 1)) expect(a.status).toBe(200);

    const many = Array.from({ length: 10_000 }, (_, i) => entry(`10.6.${i >> 8}.${i & 255}`));
    const line = `timed ${JSON.stringify({ op: 'add', list: 'intercepted', entries: many })}`;
    expect(line.length).toBeGreaterThan(1_000_000);
    expect(await admin(line)).toEqual({ ok: true });
    for (const a of await fromEveryWorker('10.6.39.15', 1)) expect(a.status).toBe(403);
    const tooMany = `timed ${JSON.stringify({ op: 'remove', list: 'intercepted', ips: Array.from({ length: 10_001 }, (_, i) => `10.7.${i >> 8}.${i & 255}`) })}`;
    expect(await refused(tooMany)).toContain('timed');
    expect(stderr).not.toContain('TypeError');
  });

  it('checks a claimed spider by DNS once for the whole cluster, and blocks a fake one on every worker', async () => {
    const googlebot = { 'x-spider': 'google' };
    // The first request starts the lookup and is not held up by it.
    expect((await get('203.0.113.7', googlebot)).status).toBe(200);
    await sleep(300);
    for (const a of await fromEveryWorker('203.0.113.7', 2, googlebot)) expect(a.status).toBe(403);
    expect((await get('66.249.66.1', googlebot)).status).toBe(200);
    await sleep(300);
    for (const a of await fromEveryWorker('66.249.66.1', 2, googlebot)) expect(a.status).toBe(200);
    // One worker asked; the other took its verdict from the primary.
    expect(dns.queries.filter((q) => q === `PTR ${reverseName('203.0.113.7')}`)).toHaveLength(1);
    expect(dns.queries.filter((q) => q === `PTR ${reverseName('66.249.66.1')}`)).toHaveLength(1);
    expect(dns.queries.filter((q) => q === 'A crawl-66-249-66-1.googlebot.com')).toHaveLength(2);
  });

  it('answers several commands on one connection in order', async () => {
    const answers = await new Promise<string[]>((resolve, reject) => {
      const socket = net.connect(adminPath);
      let text = '';
      socket.on('connect', () => socket.write('status\nevents\nnonsense\n'));
      socket.on('data', (c) => {
        text += c.toString();
        const lines = text.split('\n').filter(Boolean);
        if (lines.length === 3) {
          socket.end();
          resolve(lines);
        }
      });
      socket.on('error', reject);
    });
    expect(JSON.parse(answers[0] ?? '')).toMatchObject({ ok: true, workers: expect.any(Array) });
    expect(JSON.parse(answers[1] ?? '')).toMatchObject({ ok: true, events: expect.any(Array) });
    expect(JSON.parse(answers[2] ?? '')).toMatchObject({ ok: false });
  });
});
