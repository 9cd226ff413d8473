import { AgentClient } from '@rampart/agent-client';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestAgent } from './helpers.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('software.restart and server.reboot', () => {
  it('answer scheduled first, then run the executor about 200 ms later', async () => {
    const agent = await startTestAgent();
    const client = new AgentClient(agent.socketPath);
    cleanups.push(() => agent.dispose(), () => client.close());

    expect(await client.call('software.restart', {})).toEqual({ scheduled: true });
    const restartAnswered = Date.now();
    expect(agent.restarts).toEqual([]);
    expect(await client.call('server.reboot', {})).toEqual({ scheduled: true });
    const rebootAnswered = Date.now();
    expect(agent.reboots).toEqual([]);

    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(agent.restarts).toHaveLength(1);
    expect(agent.reboots).toHaveLength(1);
    expect(agent.restarts[0]! - restartAnswered).toBeGreaterThanOrEqual(100);
    expect(agent.reboots[0]! - rebootAnswered).toBeGreaterThanOrEqual(100);
  });

  it('a failing executor is logged and the agent keeps serving', async () => {
    const agent = await startTestAgent({
      executors: {
        restartSoftware: () => Promise.reject(new Error('systemctl not found')),
        rebootServer: () => {
          throw new Error('sync throw');
        },
      },
    });
    const client = new AgentClient(agent.socketPath);
    cleanups.push(() => agent.dispose(), () => client.close());
    await client.call('software.restart', {});
    await client.call('server.reboot', {});
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(agent.logs.join('\n')).toMatch(/software restart failed: systemctl not found/);
    expect(agent.logs.join('\n')).toMatch(/server reboot failed: sync throw/);
    expect(await client.call('module.list', {})).toBeTruthy();
  });

  it('a stopped agent does not run an action it had scheduled', async () => {
    const agent = await startTestAgent();
    const client = new AgentClient(agent.socketPath);
    await client.call('server.reboot', {});
    client.close();
    await agent.dispose();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(agent.reboots).toEqual([]);
  });
});
