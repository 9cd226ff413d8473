import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AgentCallError, AgentClient } from '@rampart/agent-client';
import { defaultModuleFlags, type ModuleFlags } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { startTestAgent, useCleanups, type TestAgent } from './helpers.ts';

const { cleanups, tempDir } = useCleanups();

async function agentWithClient(dir: string, hook?: (flags: ModuleFlags) => void): Promise<{ agent: TestAgent; client: AgentClient }> {
  const agent = await startTestAgent({ dir, onModuleSwitch: hook });
  const client = new AgentClient(agent.socketPath);
  cleanups.push(() => agent.close(), () => client.close());
  return { agent, client };
}

describe('module flags', () => {
  it('are all 0 on a fresh state dir', async () => {
    const { client } = await agentWithClient(await tempDir());
    expect(await client.call('module.list', {})).toEqual(defaultModuleFlags());
  });

  it('switch sets the named modules, calls the hook, persists, and survives a restart', async () => {
    const dir = await tempDir();
    const seen: ModuleFlags[] = [];
    const first = await agentWithClient(dir, (flags) => seen.push(flags));
    const expected = { ...defaultModuleFlags(), firewall: 1, remote: 1 };
    expect(await first.client.call('module.switch', { modules: ['firewall', 'remote', 'tamper'], status: 1 })).toEqual({
      ...expected,
      tamper: 1,
    });
    expect(await first.client.call('module.switch', { modules: ['tamper'], status: 0 })).toEqual(expected);
    expect(seen).toEqual([{ ...expected, tamper: 1 }, expected]);

    const file = path.join(first.agent.stateDir, 'modules.json');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(expected);
    // Atomic write leaves no temp files behind.
    expect((await readdir(first.agent.stateDir)).filter((name) => name.includes('modules'))).toEqual(['modules.json']);

    first.client.close();
    await first.agent.close();
    const second = await agentWithClient(dir);
    expect(await second.client.call('module.list', {})).toEqual(expected);
  });

  it('concurrent switches all land', async () => {
    const { client, agent } = await agentWithClient(await tempDir());
    const keys = ['firewall', 'trojan', 'remote', 'account', 'tamper', 'process', 'website', 'cloud'] as const;
    await Promise.all(keys.map((key) => client.call('module.switch', { modules: [key], status: 1 })));
    const all = Object.fromEntries(keys.map((k) => [k, 1]));
    expect(await client.call('module.list', {})).toEqual(all);
    expect(JSON.parse(await readFile(path.join(agent.stateDir, 'modules.json'), 'utf8'))).toEqual(all);
  });

  it('a corrupt modules.json means defaults and a log line, not a crash', async () => {
    const dir = await tempDir();
    await mkdir(path.join(dir, 'state'));
    await writeFile(path.join(dir, 'state', 'modules.json'), '{"firewall": 1, "trojan": ');
    const { agent, client } = await agentWithClient(dir);
    expect(await client.call('module.list', {})).toEqual(defaultModuleFlags());
    expect(agent.logs.join('\n')).toMatch(/modules\.json.*not valid JSON/);
    // And it can be repaired by the next switch.
    await client.call('module.switch', { modules: ['cloud'], status: 1 });
    expect(JSON.parse(await readFile(path.join(dir, 'state', 'modules.json'), 'utf8')).cloud).toBe(1);
  });

  it('keeps the valid flags of a partly wrong file and logs the rest', async () => {
    const dir = await tempDir();
    await mkdir(path.join(dir, 'state'));
    await writeFile(path.join(dir, 'state', 'modules.json'), JSON.stringify({ firewall: 1, trojan: 'yes', bogus: 1 }));
    const { agent, client } = await agentWithClient(dir);
    expect(await client.call('module.list', {})).toEqual({ ...defaultModuleFlags(), firewall: 1 });
    expect(agent.logs.join('\n')).toMatch(/trojan: "yes" is not 0 or 1/);
  });

  it('a hook that throws does not undo the switch', async () => {
    const { agent, client } = await agentWithClient(await tempDir(), () => {
      throw new Error('engine exploded');
    });
    expect((await client.call('module.switch', { modules: ['website'], status: 1 })).website).toBe(1);
    expect(agent.logs.join('\n')).toMatch(/engine exploded/);
  });

  it('a failed write answers failed and keeps the old flags', async () => {
    const dir = await tempDir();
    const { agent, client } = await agentWithClient(dir);
    // Replace the state dir with a file so the temp file cannot be created.
    await rm(agent.stateDir, { recursive: true });
    await writeFile(agent.stateDir, 'not a directory');
    const error = await client.call('module.switch', { modules: ['firewall'], status: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentCallError);
    expect((error as AgentCallError).code).toBe('failed');
    expect((await client.call('module.list', {})).firewall).toBe(0);
  });
});
