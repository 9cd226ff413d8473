import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentClient } from '@rampart/agent-client';
import { recordedExecutor } from '@rampart/audit';
import { baseAccounts, makeRoot, removeRoots } from '../../../packages/audit/tests/fixture-root.ts';
import { startTestAgent, useCleanups } from './helpers.ts';

/*
 * The audit's user and process calls through the agent's real socket: an agent without an audit
 * target reads nothing; with one, the users of a fixture root (temp dir) and the real processes of
 * this machine, a child started here among them. Params are checked again by the agent.
 */
const { cleanups, tempDir } = useCleanups();
afterAll(removeRoots);

async function client(audit?: { root: string }) {
  const agent = await startTestAgent({ dir: await tempDir(), logs: { background: false }, ...(audit ? { audit: { root: audit.root, executor: recordedExecutor({}) } } : {}) });
  const c = new AgentClient(agent.socketPath, { timeoutMs: 10_000 });
  cleanups.push(async () => {
    c.close();
    await agent.close();
  });
  return c;
}

describe('audit.users and audit.processes on the agent socket', () => {
  it('reads nothing without an audit target', async () => {
    const c = await client();
    expect(await c.call('audit.users.list', { offset: 0, limit: 20, findings_only: false })).toEqual({ available: false, total: 0, findings: { hint: 0, warning: 0, danger: 0 }, list: [] });
    expect(await c.call('audit.processes.get', { pid: process.pid })).toBeNull();
  });

  it('lists the root\'s users and this machine\'s processes, a child among them, and checks params', async () => {
    const c = await client({ root: makeRoot(baseAccounts) });
    const users = await c.call('audit.users.list', { offset: 0, limit: 20, findings_only: false });
    expect(users.list.map((u) => u.name)).toEqual(['root', 'daemon', 'sync', 'admin']);
    expect(users.list.find((u) => u.name === 'admin')).toMatchObject({ sudo: true, groups: ['sudo'], remote: { ssh: 'no_sshd', methods: [] } });
    expect((await c.call('audit.users.list', { offset: 0, limit: 20, findings_only: true })).list).toEqual([]);

    const child = spawn('/bin/sleep', ['30'], { stdio: 'ignore' });
    cleanups.push(async () => void child.kill('SIGKILL'));
    const procs = await c.call('audit.processes.list', { offset: 0, limit: 200, findings_only: false });
    expect(procs.available).toBe(true);
    expect(procs.list.find((p) => p.pid === child.pid)).toMatchObject({ name: 'sleep', path: '/usr/bin/sleep', parent: { pid: process.pid } });
    expect(await c.call('audit.processes.get', { pid: child.pid! })).toMatchObject({ pid: child.pid, user: 'root' });
    await expect(c.call('audit.processes.list', { offset: 0, limit: 0, findings_only: false })).rejects.toThrow();
    await expect(c.call('audit.processes.get', { pid: -4 } as never)).rejects.toThrow();
  });
});
