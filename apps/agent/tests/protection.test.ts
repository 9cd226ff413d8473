import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentClient } from '@rampart/agent-client';
import { localDateTime } from '@rampart/contracts';
import { startTestAgent, useCleanups, type TestAgent } from './helpers.ts';

/*
 * System protection owned by the agent: its state survives restarts, a temporary disable ends by
 * itself (timer, a read past the end, or a start past the end), and each change leaves an event;
 * a temporary disable also a notice. The clock is the test's, so no test waits for minutes.
 */
const { cleanups, tempDir } = useCleanups();

interface Running {
  agent: TestAgent;
  client: AgentClient;
}

async function start(dir: string, clock: { now: number }, timers = false): Promise<Running> {
  const agent = await startTestAgent({ dir, protection: { now: () => clock.now, timers }, logs: { now: () => clock.now, background: false } });
  const client = new AgentClient(agent.socketPath, { timeoutMs: 5000 });
  // The firewall module on, so `firewall.enforcing` shows whether it follows the pause (no kernel: nft is null).
  await client.call('module.switch', { modules: ['firewall'], status: 1 });
  cleanups.push(async () => {
    client.close();
    await agent.close();
  });
  return { agent, client };
}

async function stop({ agent, client }: Running): Promise<void> {
  client.close();
  await agent.close();
}

const kinds = async (client: AgentClient) => (await client.call('events.query', { module: 'system', limit: 100 })).list.map((e) => e.kind).reverse();

describe('system protection (agent)', () => {
  it('is on at first start', async () => {
    const { client } = await start(await tempDir(), { now: Date.now() });
    expect(await client.call('protection.get', {})).toEqual({ mode: 'on', until: null, minutes_left: null, since: null, account: '' });
  });

  it('a temporary disable counts down, leaves an event and a notice, and ends by itself when the time is up', async () => {
    const clock = { now: Date.UTC(2026, 10, 22, 3, 0, 0) };
    const { agent, client } = await start(await tempDir(), clock);
    const state = await client.call('protection.set', { mode: 'temp_off', minutes: 720, account: 'admin', ip: '192.0.2.5' });
    const until = clock.now + 720 * 60_000;
    expect(state).toEqual({ mode: 'temp_off', until, minutes_left: 720, since: clock.now, account: 'admin' });
    expect(agent.firewall.enforcing).toBe(false);

    clock.now += 60 * 60_000 + 1;
    expect((await client.call('protection.get', {})).minutes_left).toBe(660);

    const events = (await client.call('events.query', { module: 'system', limit: 10 })).list;
    expect(events[0]).toMatchObject({ kind: 'protection.paused', account: 'admin', ip: '192.0.2.5', params: { account: 'admin', minutes: 720, until: localDateTime(until) } });
    const notices = await client.call('notices.list', { offset: 0, limit: 10 });
    expect(notices.list[0]).toMatchObject({ kind: 'protection_temp_off', params: { account: 'admin', until: localDateTime(until) } });

    clock.now = until;
    expect(await client.call('protection.get', {})).toMatchObject({ mode: 'on', until: null, minutes_left: null, account: '' });
    expect(agent.firewall.enforcing).toBe(true);
    expect(await kinds(client)).toEqual(['protection.paused', 'protection.auto_resumed']);
  });

  it('the timer resumes protection without anyone asking', async () => {
    const dir = await tempDir();
    // A real clock, skewed: the second agent starts 300 ms before the end, and its timer must fire by itself.
    let skew = 0;
    const clock = { get now() { return Date.now() + skew; } };
    const first = await start(dir, clock);
    await first.client.call('protection.set', { mode: 'temp_off', minutes: 1 });
    await stop(first);
    skew = 60_000 - 300;
    const { agent, client } = await start(dir, clock, true);
    expect(agent.firewall.enforcing).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(agent.firewall.enforcing).toBe(true);
    expect(await kinds(client)).toEqual(['protection.paused', 'protection.auto_resumed']);
    expect((await client.call('protection.get', {})).mode).toBe('on');
  });

  it('an agent started after the end time starts with protection on (and says so in the log)', async () => {
    const dir = await tempDir();
    const clock = { now: Date.now() };
    const first = await start(dir, clock);
    await first.client.call('protection.set', { mode: 'temp_off', minutes: 30, account: 'admin' });
    await stop(first);
    clock.now += 31 * 60_000;
    const { agent, client } = await start(dir, clock);
    expect(agent.firewall.enforcing).toBe(true);
    expect((await client.call('protection.get', {})).mode).toBe('on');
    expect(await kinds(client)).toEqual(['protection.paused', 'protection.auto_resumed']);
    expect(JSON.parse(await readFile(path.join(agent.stateDir, 'protection.json'), 'utf8'))).toMatchObject({ mode: 'on' });
  });

  it('permanently off needs a hand to come back; on → on changes nothing', async () => {
    const dir = await tempDir();
    const clock = { now: Date.now() };
    const first = await start(dir, clock);
    await first.client.call('protection.set', { mode: 'off', account: 'admin' });
    await stop(first);
    clock.now += 365 * 24 * 3600_000;
    const { agent, client } = await start(dir, clock);
    expect(await client.call('protection.get', {})).toMatchObject({ mode: 'off', until: null, minutes_left: null, account: 'admin' });
    expect(agent.firewall.enforcing).toBe(false);
    await client.call('protection.set', { mode: 'on', account: 'ops1' });
    await client.call('protection.set', { mode: 'on', account: 'ops1' });
    expect(agent.firewall.enforcing).toBe(true);
    expect(await kinds(client)).toEqual(['protection.stopped', 'protection.resumed']);
  });

  it('refuses a temporary disable without minutes, or with 0, and changes nothing', async () => {
    const { client } = await start(await tempDir(), { now: Date.now() });
    for (const params of [{ mode: 'temp_off' }, { mode: 'temp_off', minutes: 0 }, { mode: 'temp_off', minutes: 1.5 }, { mode: 'paused', minutes: 5 }, { mode: 'on', extra: 1 }]) {
      await expect(client.call('protection.set', params as never), JSON.stringify(params)).rejects.toThrow();
    }
    expect((await client.call('protection.get', {})).mode).toBe('on');
  });

  it('a damaged state file reads as protection on', async () => {
    const dir = await tempDir();
    await mkdir(path.join(dir, 'state'), { recursive: true });
    await writeFile(path.join(dir, 'state', 'protection.json'), '{"mode": "temp_off", "until": "soon"');
    const { agent, client } = await start(dir, { now: Date.now() });
    expect((await client.call('protection.get', {})).mode).toBe('on');
    expect(agent.logs.some((line) => line.includes('protection.json is damaged'))).toBe(true);
  });
});
