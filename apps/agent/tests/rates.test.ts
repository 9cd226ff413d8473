import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AgentClient } from '@rampart/agent-client';
import { netRatesSchema } from '@rampart/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { RateSampler } from '../src/index.ts';
import { fixture } from './fixtures.ts';
import { makeTempDir, startTestAgent } from './helpers.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('host.rates', () => {
  it('answers over the socket from the real /proc/net/dev, waiting for the first two samples', async () => {
    const agent = await startTestAgent();
    cleanups.push(() => agent.dispose());
    const client = new AgentClient(agent.socketPath);
    cleanups.push(() => client.close());
    const asked = Date.now();
    // Asked right after start: only one sample exists, so the agent waits for the second.
    const rates = await client.call('host.rates', {});
    expect(netRatesSchema.parse(rates)).toEqual(rates);
    expect(rates.rx).toBeGreaterThanOrEqual(0);
    expect(rates.tx).toBeGreaterThanOrEqual(0);
    expect(rates.at).toBeGreaterThanOrEqual(asked - 100);
    expect(rates.at).toBeLessThanOrEqual(Date.now());
  });

  it('computes rates from the file it samples, and stops sampling when stopped', async () => {
    const dir = await makeTempDir();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const netDev = path.join(dir, 'net-dev');
    await writeFile(netDev, fixture('net-dev-1.txt'));
    const sampler = new RateSampler({ netDevPath: netDev, intervalMs: 200, log: () => undefined });
    cleanups.push(() => sampler.stop());
    sampler.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await writeFile(netDev, fixture('net-dev-2.txt'));
    const rates = await sampler.current(1000);
    // eth0 received 125000 B and wlan0 sent 25000 B between the samples (~200 ms apart).
    expect(rates.rx / rates.tx).toBeCloseTo(5, 5);
    expect(rates.rx).toBeGreaterThan(125_000 * 8 * 2);
    expect(rates.rx).toBeLessThan(125_000 * 8 * 10);


    // After stop() the file may change as it likes: no new sample, so the rate stays put.
    sampler.stop();
    await writeFile(netDev, fixture('net-dev-2.txt').replace('130000', '999999999'));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await sampler.current(0)).toEqual(rates);
  });

  it('gives up after the bounded wait when no rate can be computed', async () => {
    const logs: string[] = [];
    const sampler = new RateSampler({ netDevPath: '/nonexistent/net-dev', intervalMs: 100, log: (line) => logs.push(line) });
    cleanups.push(() => sampler.stop());
    sampler.start();
    const started = Date.now();
    await expect(sampler.current(300)).rejects.toThrow(/not available/);
    expect(Date.now() - started).toBeLessThan(1000);
    // The failure is logged once, not on every tick.
    expect(logs).toHaveLength(1);
  });
});
