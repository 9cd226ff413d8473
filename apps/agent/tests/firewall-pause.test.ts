import { appendFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentClient } from '@rampart/agent-client';
import { createNftExecutor, tableName } from '@rampart/firewall';
import { defaultAttackSettings } from '@rampart/contracts';
import { LAB_IP, canUseNetns, createLab, type Lab } from '../../../packages/firewall/tests/support/lab.ts';
import type { Peer } from '../../../packages/firewall/tests/support/peer.ts';
import { makeTempDir, startTestAgent, useCleanups, type TestAgent } from './helpers.ts';

/*
 * System protection paused (temporarily or permanently off) stops the firewall: Rampart's table
 * leaves the kernel and detections block nobody; on resume the whole ruleset goes back in.
 */

const WEB = 8080;
const server = LAB_IP.server.toAttacker.v4;

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!canUseNetns())('protection pause on nftables (agent, real packets)', () => {
  let lab: Lab;
  let agent: TestAgent;
  let client: AgentClient;
  let attacker: Peer;
  const nftIn = () => createNftExecutor({ netns: lab.names.server });
  const hasTable = async () => {
    const listing = (await nftIn().read(['list', 'tables'])) as { nftables?: Array<{ table?: { name: string } }> };
    return (listing.nftables ?? []).some((item) => item.table?.name === tableName);
  };
  const web = () => attacker.probe({ proto: 'tcp', host: server, port: WEB }).then((r) => r.state);

  beforeAll(async () => {
    lab = await createLab();
    const dir = await makeTempDir();
    lab.onDestroy(() => rm(dir, { recursive: true, force: true }));
    agent = await startTestAgent({ dir, firewall: { nft: nftIn(), background: false, sensors: { journal: false } } });
    client = new AgentClient(agent.socketPath, { timeoutMs: 20_000 });
    await client.call('module.switch', { modules: ['firewall'], status: 1 });
    await client.call('firewall.rules.add', {
      rule: { direction: 'in', protocol: 'tcp', ports: String(WEB), ips: ['*'], areas: [], action: 'deny', priority: 50, enabled: true, remark: '' },
      guard: { admin_ip: null, panel_port: 8443 },
    });
    await (await lab.peer('server')).listen({ proto: 'tcp', port: WEB });
    attacker = await lab.peer('attacker');
  }, 60_000);
  afterAll(async () => {
    client?.close();
    await agent?.dispose();
    await lab?.destroy();
  });

  it('a temporary disable removes the table (the denied port opens); resuming puts the whole ruleset back', async () => {
    expect(await hasTable()).toBe(true);
    expect(await web()).not.toBe('open');

    const paused = await client.call('protection.set', { mode: 'temp_off', minutes: 30, account: 'admin' });
    expect(paused).toMatchObject({ mode: 'temp_off', minutes_left: 30, account: 'admin' });
    expect(await hasTable()).toBe(false);
    expect(await web()).toBe('open');
    expect((await client.call('firewall.status', {})).kernel).toBe('off');
    // Desired state is kept while paused: the rule is still there.
    expect((await client.call('firewall.rules.list', { direction: 'in', offset: 0, limit: 10 })).list).toHaveLength(1);

    await client.call('protection.set', { mode: 'on', account: 'admin' });
    expect(await hasTable()).toBe(true);
    expect(await web()).not.toBe('open');
    expect((await client.call('firewall.status', {})).kernel).toBe('ok');
  });

  it('permanently off stays off until turned on by hand, and a restart while paused does not put the table back', async () => {
    await client.call('protection.set', { mode: 'off', account: 'admin' });
    expect(await hasTable()).toBe(false);
    const { dir } = agent;
    client.close();
    await agent.close();
    agent = await startTestAgent({ dir, firewall: { nft: nftIn(), background: false, sensors: { journal: false } } });
    client = new AgentClient(agent.socketPath, { timeoutMs: 20_000 });
    expect((await client.call('protection.get', {})).mode).toBe('off');
    expect(await hasTable()).toBe(false);
    expect(await web()).toBe('open');
    await client.call('protection.set', { mode: 'on', account: 'admin' });
    expect(await hasTable()).toBe(true);
  });
});

describe('protection pause stops the detections (no kernel needed)', () => {
  const { cleanups, tempDir } = useCleanups();
  let agent: TestAgent;
  let client: AgentClient;

  const start = async () => {
    const dir = await tempDir();
    agent = await startTestAgent({ dir, firewall: { nft: null, background: false, sensors: { journal: false, pollMs: 50 } } });
    client = new AgentClient(agent.socketPath, { timeoutMs: 10_000 });
    cleanups.push(async () => {
      client.close();
      await agent.close();
    });
    const log = path.join(dir, 'sshd.log');
    await writeFile(log, '');
    await client.call('module.switch', { modules: ['firewall'], status: 1 });
    const settings = await client.call('firewall.attack.get', {});
    await client.call('firewall.attack.set', {
      settings: { ...settings, ssh_bruteforce: { ...defaultAttackSettings.ssh_bruteforce, attempts: 3, seconds: 120, journal: false, log_files: [log] } },
    });
    return log;
  };
  // sshd -E writes bare messages; the pipeline reads them as happening now.
  const guesses = (ip: string, count: number) =>
    Array.from({ length: count }, (_, i) => `Failed password for invalid user u${i} from ${ip} port ${40000 + i} ssh2\n`).join('');
  const blocked = async () => (await client.call('firewall.intercept.list', { offset: 0, limit: 50 })).list.map((e) => e.ip);

  it('password guessing while paused blocks nobody; after resuming the same guessing is blocked', async () => {
    const log = await start();
    await client.call('protection.set', { mode: 'temp_off', minutes: 5 });
    await appendFile(log, guesses('203.0.113.70', 8));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await blocked()).toEqual([]);

    await client.call('protection.set', { mode: 'on' });
    // Let the rebuilt sensor take its place at the end of the file before the new lines come.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await appendFile(log, guesses('203.0.113.71', 8));
    expect(await until(blocked, (ips) => ips.includes('203.0.113.71'))).toContain('203.0.113.71');
    expect(await blocked()).not.toContain('203.0.113.70');
  });
});
