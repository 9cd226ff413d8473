import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentClient } from '@rampart/agent-client';
import { defaultNtpSettings, type NtpSettings } from '@rampart/contracts';
import { chronydMissing, startChronyd, type Chronyd } from '../../../packages/sntp/tests/support/chronyd.ts';
import { systemClockSetter } from '../src/time/system-clock.ts';
import { startTestAgent, useCleanups, type TestAgent } from './helpers.ts';

/*
 * NTP sync in the agent against Debian's chronyd on loopback. The clock setter is a recorder:
 * tests never set the host clock.
 */
const { cleanups, tempDir } = useCleanups();

/** A UDP port that swallows requests and never answers. */
async function silentServer(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => socket.close(() => resolve())));
  return socket.address().port;
}

async function start(dir: string, setClock: ((ms: number) => Promise<void>) | undefined) {
  const agent: TestAgent = await startTestAgent({
    dir,
    executors: { restartSoftware: async () => {}, rebootServer: async () => {}, ...(setClock ? { setClock } : {}) },
    ntp: { timers: false, timeoutMs: 400 },
  });
  const client = new AgentClient(agent.socketPath, { timeoutMs: 10_000 });
  cleanups.push(async () => {
    client.close();
    await agent.close();
  });
  return { agent, client };
}

describe('NTP settings (agent)', () => {
  it('start with the defaults (off, interval 60) and keep what is saved across a restart', async () => {
    const dir = await tempDir();
    const first = await start(dir, undefined);
    expect(await first.client.call('ntp.get', {})).toEqual({
      settings: defaultNtpSettings,
      status: { state: 'idle', at: null, server: '', time: null, offset_ms: null, delay_ms: null, clock_set: false, error: '' },
    });
    expect(defaultNtpSettings.interval_minutes).toBe(60);
    const settings: NtpSettings = { enabled: true, servers: ['127.0.0.1:1123', '[::1]:1123', 'time.example.com'], interval_minutes: 5 };
    expect((await first.client.call('ntp.set', { settings })).settings).toEqual(settings);
    first.client.close();
    await first.agent.close();
    const second = await start(dir, undefined);
    expect((await second.client.call('ntp.get', {})).settings).toEqual(settings);
  });

  it('refuses bad settings: interval 0, a bad server name, too many servers, duplicates, on with no server', async () => {
    const { client } = await start(await tempDir(), undefined);
    const base = { enabled: false, servers: ['pool.ntp.org'], interval_minutes: 60 };
    const bad = [
      { ...base, interval_minutes: 0 },
      { ...base, interval_minutes: 2.5 },
      { ...base, servers: ['bad host!'] },
      { ...base, servers: ['host:0'] },
      { ...base, servers: Array.from({ length: 11 }, (_, i) => `ntp${i}.example.com`) },
      { ...base, servers: ['a.example.com', 'A.example.com'] },
      { ...base, enabled: true, servers: [] },
    ];
    for (const settings of bad) await expect(client.call('ntp.set', { settings } as never), JSON.stringify(settings)).rejects.toThrow();
    expect((await client.call('ntp.get', {})).settings).toEqual(defaultNtpSettings);
  });
});

describe('the production clock setter', () => {
  it('in a dry run only logs the time it would set (what the browser tests use)', async () => {
    const lines: string[] = [];
    await systemClockSetter({ dry: true, log: (line) => lines.push(line) })(Date.UTC(2026, 10, 22, 3, 0, 0, 500));
    expect(lines).toEqual(['ntp: would set the clock to 2026-11-22T03:00:00.500Z (dry run)']);
  });
});

describe('NTP sync (agent)', () => {
  it('a server that does not answer is a failure, and the clock is not touched', async () => {
    const set: number[] = [];
    const { client } = await start(await tempDir(), async (ms) => void set.push(ms));
    const port = await silentServer();
    await client.call('ntp.set', { settings: { enabled: false, servers: [`127.0.0.1:${port}`], interval_minutes: 60 } });
    const { status } = await client.call('ntp.sync', {});
    expect(status).toMatchObject({ state: 'failure', server: `127.0.0.1:${port}`, time: null, clock_set: false });
    expect(status.error).toMatch(/no answer/);
    expect(set).toEqual([]);
  });

  it('a clock setter that fails makes the sync a failure that says why', async () => {
    const chronyd = chronydMissing ? null : await startChronyd();
    if (!chronyd) return;
    cleanups.push(() => chronyd.stop());
    const { client } = await start(await tempDir(), async () => {
      throw new Error('date: cannot set date: Operation not permitted');
    });
    await client.call('ntp.set', { settings: { enabled: false, servers: [`127.0.0.1:${chronyd.port}`], interval_minutes: 60 } });
    const { status } = await client.call('ntp.sync', {});
    expect(status).toMatchObject({ state: 'failure', clock_set: false });
    expect(status.error).toContain('Operation not permitted');
  });
});

describe.skipIf(chronydMissing !== '')(`NTP sync against a real chronyd${chronydMissing ? ` (skipped: ${chronydMissing})` : ''}`, () => {
  let chronyd: Chronyd;
  beforeAll(async () => {
    chronyd = await startChronyd();
  });
  afterAll(() => chronyd?.stop());

  it('syncs from the first server that answers and hands the time to the clock setter', async () => {
    const set: number[] = [];
    const { client } = await start(await tempDir(), async (ms) => void set.push(ms));
    const silent = await silentServer();
    const servers = [`127.0.0.1:${silent}`, `[::1]:${chronyd.port}`];
    await client.call('ntp.set', { settings: { enabled: true, servers, interval_minutes: 60 } });
    const before = Date.now();
    const { status } = await client.call('ntp.sync', {});
    expect(status).toMatchObject({ state: 'success', server: `[::1]:${chronyd.port}`, clock_set: true, error: '' });
    const after = Date.now();
    // chronyd reads the same clock: the offset is off by at most half the round trip (+1 ms, Date.now()'s
    // resolution), however long a loaded machine made that trip (a fixed 50 ms is not). The time read
    // lies within the call, give or take that error.
    const error = status.delay_ms! / 2 + 2;
    expect(Math.abs(status.offset_ms!)).toBeLessThanOrEqual(error);
    expect(status.delay_ms!).toBeGreaterThanOrEqual(0);
    expect(status.delay_ms!).toBeLessThanOrEqual(after - before + 1);
    expect(status.time!).toBeGreaterThanOrEqual(before - error);
    expect(status.time!).toBeLessThanOrEqual(after + error);
    expect(status.at!).toBeGreaterThanOrEqual(before);
    expect(set).toHaveLength(1);
    expect(set[0]!).toBeGreaterThanOrEqual(before - error);
    expect(set[0]!).toBeLessThanOrEqual(after + error);
  });

  it('two syncs asked at once share one run', async () => {
    const set: number[] = [];
    const { client } = await start(await tempDir(), async (ms) => void set.push(ms));
    await client.call('ntp.set', { settings: { enabled: false, servers: [`localhost:${chronyd.port}`], interval_minutes: 1 } });
    const [a, b] = await Promise.all([client.call('ntp.sync', {}), client.call('ntp.sync', {})]);
    expect(a.status.state).toBe('success');
    expect(b.status).toEqual(a.status);
    expect(set).toHaveLength(1);
  });

  it('without a clock setter (tests, dry runs) the time is fetched and the clock left alone', async () => {
    const { agent, client } = await start(await tempDir(), undefined);
    await client.call('ntp.set', { settings: { enabled: false, servers: [`127.0.0.1:${chronyd.port}`], interval_minutes: 60 } });
    const { status } = await client.call('ntp.sync', {});
    expect(status).toMatchObject({ state: 'success', clock_set: false });
    expect(agent.logs.some((line) => line.includes('the clock is left alone'))).toBe(true);
  });
});
