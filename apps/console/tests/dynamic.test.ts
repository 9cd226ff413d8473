import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { dynamicConnectionsSchema, dynamicOverviewSchema, type EventInput } from '@rampart/contracts';
import { magapi, startHarness, type Harness } from './support/harness.ts';

/*
 * Situational awareness against a real agent on a real socket: attacks stored by the agent's event
 * store show in the overview (areas from the shipped geo-IP data), the host's real TCP sockets in
 * the connections, a new block reaches a websocket subscriber within a second, the preferences
 * save and refuse bad input in both languages, and only roles with `dynamic` get in.
 */

let h: Harness;
let token: string;

beforeAll(async () => {
  h = await startHarness({ agent: () => ({ guard: { spawn: false, background: false }, cloud: { nft: null, timers: false } }) });
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterAll(async () => {
  await h.close();
});

type Lang = 'zh-CN' | 'en-US';
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test reads of loosely typed answers
type Body = { code: number; msg: string; data?: any };
const get = (url: string, lang: Lang = 'en-US', as = token): Promise<{ status: number; body: Body }> => magapi(h.app, 'GET', url, { token: as, lang });
const post = (url: string, payload: unknown, lang: Lang = 'en-US', as = token): Promise<{ status: number; body: Body }> =>
  magapi(h.app, 'POST', url, { token: as, payload, lang });
const block = (ip: string, time: number): EventInput => ({ kind: 'firewall.blocked', module: 'firewall', level: 'warning', source: 'firewall', ip, params: { reason: 'port_scan', minutes: 10 }, time });

describe('situational awareness (console)', () => {
  it('shows stored attacks in the overview: counts, report, areas, addresses and the latest', async () => {
    const now = h.clock.now;
    await h.agentClient.call('events.append', { events: [block('8.8.8.8', now - 1000), block('8.8.8.8', now - 500), block('10.9.8.7', now - 100)] });
    const answer = await get('/dynamic/overview');
    expect(answer.status).toBe(200);
    const view = dynamicOverviewSchema.parse(answer.body.data);
    expect(view.counts.today).toBe(3);
    expect(view.trend.at(-1)?.count).toBe(3);
    expect(view.report).toEqual([{ module: 'firewall', kind: 'firewall.blocked', count: 3 }]);
    expect(view.areas).toEqual([{ area: 'US', count: 2 }, { area: 'internal', count: 1 }]);
    expect(view.ips[0]).toEqual({ ip: '8.8.8.8', area: 'US', count: 2 });
    expect(view.latest.map((a) => a.ip)).toEqual(['10.9.8.7', '8.8.8.8', '8.8.8.8']);
  });

  it('counts the host\'s real TCP sockets by state and remote area', async () => {
    const server = net.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const client = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
    await new Promise((resolve) => client.once('connect', resolve));
    try {
      const view = dynamicConnectionsSchema.parse((await get('/dynamic/connections')).body.data);
      const states = Object.fromEntries(view.states.map((s) => [s.state, s.count]));
      expect(states['ESTABLISHED']).toBeGreaterThanOrEqual(2);
      expect(states['LISTEN']).toBeGreaterThanOrEqual(1);
      expect(view.areas.find((a) => a.area === 'internal')?.count).toBeGreaterThanOrEqual(2);
    } finally {
      client.destroy();
      server.close();
    }
  });

  it('pushes a new block to a websocket subscriber within a second', async () => {
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    const url = `ws://127.0.0.1:${(h.app.server.address() as net.AddressInfo).port}/ws`;
    const ws = new WebSocket(url, [token]);
    try {
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      ws.send(JSON.stringify({ act: 'sub', data: 'attack' }));
      // The feed's first poll sets its mark; give it one round trip.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const pushed = new Promise<{ list: { ip: string }[] }>((resolve) =>
        ws.on('message', (raw) => {
          const m = JSON.parse(raw.toString()) as { act: string; data: { list: { ip: string }[] } };
          if (m.act === 'attack') resolve(m.data);
        }));
      const started = Date.now();
      await h.agentClient.call('events.append', { events: [block('1.1.1.1', h.clock.now)] });
      const data = await pushed;
      expect(Date.now() - started).toBeLessThan(1000);
      expect(data.list.map((a) => a.ip)).toEqual(['1.1.1.1']);
    } finally {
      ws.terminate();
    }
  });

  it('serves the host performance history of the last hour, and refuses a bad period in both languages', async () => {
    const answer = await get('/dynamic/performance');
    expect(answer.body).toMatchObject({ code: 0, data: { period: '1h', step: 10 } });
    for (const lang of ['zh-CN', 'en-US'] as const) {
      const bad = await get('/dynamic/performance?period=2y', lang);
      expect(bad.status).toBeLessThan(500);
      expect(bad.body.code).not.toBe(0);
      expect(bad.body.msg).not.toBe('');
    }
  });

  it('saves the attack sound and the server location; refuses bad values in both languages and keeps the old ones', async () => {
    expect((await get('/dynamic/settings')).body.data).toEqual({ sound: false, location: '' });
    expect((await post('/dynamic/settings', { settings: { sound: true, location: 'CN' } })).body).toMatchObject({ code: 0, msg: 'Saved' });
    const cases: Array<[unknown, string, string]> = [
      [{ settings: { sound: true, location: 'china' } }, '两位国家代码', 'two-letter country code'],
      [{ settings: { sound: 'yes', location: '' } }, '攻击提示音', 'attack sound'],
    ];
    for (const [payload, zh, en] of cases) {
      const zhAnswer = await post('/dynamic/settings', payload, 'zh-CN');
      expect(zhAnswer.status).toBeLessThan(500);
      expect(zhAnswer.body.msg).toContain(zh);
      expect((await post('/dynamic/settings', payload, 'en-US')).body.msg).toContain(en);
    }
    expect((await get('/dynamic/settings')).body.data).toEqual({ sound: true, location: 'CN' });
  });

  it('an auditor reaches no dynamic route; a technician does', async () => {
    const auditor = await h.addUser('auditor');
    const technician = await h.addUser('technician');
    for (const url of ['/dynamic/overview', '/dynamic/connections', '/dynamic/performance', '/dynamic/settings']) {
      expect((await get(url, 'en-US', auditor.token)).status, url).toBe(403);
      expect((await get(url, 'en-US', technician.token)).status, url).toBe(200);
    }
    expect((await post('/dynamic/settings', { settings: { sound: false, location: '' } }, 'en-US', auditor.token)).status).toBe(403);
    expect((await post('/dynamic/settings', { settings: { sound: false, location: '' } }, 'en-US', technician.token)).body.code).toBe(0);
  });
});
