import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '@rampart/agent';
import { AgentClient } from '@rampart/agent-client';
import { createNftExecutor } from '@rampart/firewall';
import { canUseNetns } from '../../../packages/firewall/tests/support/netns-available.ts';
import { NAMESPACE_PREFIX } from '../../../packages/firewall/tests/support/lab-names.ts';

/*
 * `rampart firewall [off]` against the real nft, inside a network namespace this test creates (the
 * CLI runs under `ip netns exec`, so only that namespace's tables are seen and removed; the host's
 * are never touched): with no agent (the table is deleted directly and the module flag is written
 * off), and with a running agent (asked to switch the module off, which removes its own table).
 */
const repo = join(import.meta.dirname, '../../..');
const node = join(repo, 'node_modules/.bin/node');
const ns = `${NAMESPACE_PREFIX}${process.pid}-cli`;
const inNs = (...cmd: string[]) => spawnSync('ip', ['netns', 'exec', ns, ...cmd], { encoding: 'utf8' });
const cli = (dataDir: string, ...args: string[]) => inNs(node, join(repo, 'apps/cli/bin/rampart.js'), 'firewall', ...args, '--data-dir', dataDir);
const tables = () => inNs('nft', 'list', 'tables').stdout;
/** The same without blocking: the agent under test runs in this process and must answer meanwhile. */
const cliAsync = (dataDir: string, ...args: string[]) =>
  promisify(execFile)('ip', ['netns', 'exec', ns, node, join(repo, 'apps/cli/bin/rampart.js'), 'firewall', ...args, '--data-dir', dataDir], { encoding: 'utf8' });

const usable = canUseNetns();
const dirs: string[] = [];
const newDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-cli-firewall-'));
  dirs.push(dir);
  return dir;
};

describe.skipIf(!usable)('rampart firewall (real nft in a namespace of its own)', () => {
  beforeAll(() => {
    expect(spawnSync('ip', ['netns', 'add', ns]).status).toBe(0);
  });
  afterAll(() => {
    spawnSync('ip', ['netns', 'delete', ns]);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('with Rampart stopped: says the table is there, removes it, and leaves the module off for the next start', () => {
    const dataDir = newDataDir();
    mkdirSync(join(dataDir, 'agent'), { recursive: true });
    writeFileSync(join(dataDir, 'agent', 'modules.json'), JSON.stringify({ firewall: 1, tamper: 1 }));
    expect(inNs('nft', 'add', 'table', 'inet', 'rampart').status).toBe(0);
    expect(inNs('nft', 'add', 'table', 'inet', 'someone-else').status).toBe(0);

    const status = cli(dataDir);
    expect(status.status).toBe(0);
    expect(status.stdout).toContain('table inet rampart: in the kernel');
    expect(status.stdout).toContain('firewall module: on');

    const off = cli(dataDir, 'off');
    expect(off.stderr).toBe('');
    expect(off.status).toBe(0);
    expect(off.stdout).toContain('Table inet rampart removed');
    expect(tables()).not.toContain('inet rampart\n');
    expect(tables()).toContain('inet someone-else'); // nobody else's table goes
    expect(JSON.parse(readFileSync(join(dataDir, 'agent', 'modules.json'), 'utf8'))).toMatchObject({ firewall: 0, tamper: 1 });
    // Again: nothing left to remove is no error.
    expect(cli(dataDir, 'off').status).toBe(0);
    expect(cli(dataDir).stdout).toContain('table inet rampart: not in the kernel');
    expect(cli(dataDir, 'on').status).toBe(2);
  });

  describe('with the agent running', () => {
    let agent: RunningAgent | undefined;
    afterEach(async () => {
      await agent?.close();
      agent = undefined;
    });

    it('asks the agent, which switches the module off and removes its table', async () => {
      const dataDir = newDataDir();
      mkdirSync(join(dataDir, 'run'), { recursive: true });
      agent = await startAgent({
        socketPath: join(dataDir, 'run', 'agent.sock'),
        stateDir: join(dataDir, 'agent'),
        executors: { restartSoftware: async () => {}, rebootServer: async () => {} },
        log: () => {},
        firewall: { nft: createNftExecutor({ netns: ns }), background: false, sensors: { journal: false } },
        guard: { spawn: false, background: false },
      });
      const client = new AgentClient(agent.socketPath);
      try {
        await client.call('module.switch', { modules: ['firewall'], status: 1 });
        expect(tables()).toContain('inet rampart');
        const off = await cliAsync(dataDir, 'off');
        expect(off.stdout).toContain('The running agent switched the firewall module off');
        expect(tables()).not.toContain('inet rampart');
        expect((await client.call('module.list', {})).firewall).toBe(0);
      } finally {
        client.close();
      }
    });
  });
});

describe.skipIf(process.getuid?.() !== 0)('rampart start with a data folder the service user cannot reach', () => {
  it('names the folder and says what to do, instead of a child that exited', () => {
    const parent = newDataDir();
    chmodSync(parent, 0o700); // root's private folder: the rampart user cannot enter it
    const dataDir = join(parent, 'data');
    const r = spawnSync(node, [join(repo, 'apps/cli/bin/rampart.js'), 'start'], {
      encoding: 'utf8',
      env: { ...process.env, RAMPART_DATA_DIR: dataDir, RAMPART_PORT: '1', RAMPART_LICENCE_PORT: '1' },
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`The rampart user cannot write ${join(dataDir, 'console')}`);
    expect(r.stderr).toContain('chmod o+x');
  });
});
