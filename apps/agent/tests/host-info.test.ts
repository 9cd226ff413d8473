import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { AgentClient } from '@rampart/agent-client';
import { hostInfoSchema } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from './helpers.ts';

describe('host.info over the socket', () => {
  let agent: TestAgent;
  let client: AgentClient;
  beforeAll(async () => {
    agent = await startTestAgent();
    client = new AgentClient(agent.socketPath);
  });
  afterAll(async () => {
    client.close();
    await agent.dispose();
  });

  it('describes this machine', async () => {
    const loadBefore = os.loadavg()[0]!;
    const info = await client.call('host.info', {});
    const loadAfter = os.loadavg()[0]!;
    expect(hostInfoSchema.safeParse(info).success).toBe(true);
    expect(info.osType).toBe('linux');
    expect(info.kernel).toBe(os.release());
    expect(info.hostname).toBe(os.hostname());
    expect(info.arch).toBe(os.arch());
    expect(info.cores).toBe(os.availableParallelism());

    // MemTotal read here independently of the agent's parser.
    const memTotalKb = Number(/^MemTotal:\s+(\d+) kB$/m.exec(await readFile('/proc/meminfo', 'utf8'))?.[1]);
    expect(memTotalKb).toBeGreaterThan(0);
    expect(info.memory.total).toBe(memTotalKb * 1024);
    expect(info.memory.used + info.memory.available).toBe(info.memory.total);

    const root = info.disks.find((disk) => disk.mount === '/');
    expect(root, JSON.stringify(info.disks)).toBeDefined();
    expect(root!.size).toBeGreaterThan(0);
    expect(root!.used).toBeLessThanOrEqual(root!.size);
    expect(new Set(info.disks.map((d) => d.device)).size).toBe(info.disks.length);

    expect(info.uptime).toBeGreaterThan(0);
    // The kernel updates the averages every 5 s; the agent's reading lies between the two taken here.
    expect(info.load.one).toBeGreaterThanOrEqual(Math.min(loadBefore, loadAfter));
    expect(info.load.one).toBeLessThanOrEqual(Math.max(loadBefore, loadAfter));
  });

  it('reports the kernel status this process can actually have', async () => {
    const info = await client.call('host.info', {});
    const osRelease = await readFile('/etc/os-release', 'utf8');
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(osRelease)?.[1];
    expect(info.os).toBe(pretty);
    expect(info.kernelStatus.os).toBe(pretty);
    expect(info.kernelStatus.kernel).toBe(os.release());
    expect(info.kernelStatus.causes.includes('not_root')).toBe(process.geteuid!() !== 0);
    expect(info.kernelStatus.status).toBe(info.kernelStatus.causes.length ? 'abnormal' : 'normal');
  });
});
