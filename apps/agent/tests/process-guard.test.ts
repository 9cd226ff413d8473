import { spawnSync } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentClient } from '@rampart/agent-client';
import { startTestAgent, type TestAgent } from './helpers.ts';

/*
 * Process protection end to end, as root, with the real helper in `--backend fanotify` mode: a
 * rule denies the start of a copy of /bin/true (its own inode, under a /tmp test tree); running it
 * fails with EPERM, another copy still runs, and the denial is a `process.start_denied` event. A
 * file access rule keeps a copy of dash from writing under a test folder while /bin/sh still may.
 * The helper runs in a private mount namespace whose test tree is a bind mount of itself (as in
 * tamper-guard.test.ts): its marks never cover the host's root filesystem.
 */

const helperBin = path.resolve(import.meta.dirname, '../../guard/build/rampart-guard');
const skipReason = process.geteuid?.() !== 0
  ? 'not running as root'
  : !existsSync(helperBin)
    ? 'apps/guard/build/rampart-guard is not built (make -C apps/guard)'
    : ['unshare', 'nsenter'].find((tool) => spawnSync('which', [tool]).status !== 0) ?? null;

describe.skipIf(skipReason !== null)(`process protection with the real helper (fanotify)${skipReason ? ` — skipped: ${skipReason}` : ''}`, () => {
  let tree: string;
  let agent: TestAgent;
  let client: AgentClient;
  const tool = () => path.join(tree, 'bin/tool');
  const other = () => path.join(tree, 'bin/other');
  const writer = () => path.join(tree, 'bin/writer');
  const data = () => path.join(tree, 'data');
  const runIn = (exe: string) => spawnSync('nsenter', ['-t', String(agent.guard.helperPid), '-m', '--', exe], { encoding: 'utf8', timeout: 10_000 });

  beforeAll(async () => {
    tree = await mkdtemp(path.join(os.tmpdir(), 'rampart-process-e2e-'));
    await mkdir(path.join(tree, 'bin'));
    await copyFile('/bin/true', tool());
    await copyFile('/bin/true', other());
    // a shell of its own inode: the program a file access rule restricts
    await copyFile('/bin/dash', writer());
    await chmod(writer(), 0o755);
    await mkdir(data());
    await chmod(tool(), 0o755);
    await chmod(other(), 0o755);
    const wrapper = path.join(tree, 'guard-ns.sh');
    await writeFile(wrapper, `#!/bin/sh\nexec unshare -m --propagation private /bin/sh -c 'mount --bind "$0" "$0" && exec "$@"' '${tree}' '${helperBin}' "$@" --pin-dir '${path.join(tree, 'pins')}'\n`);
    await chmod(wrapper, 0o755);
    agent = await startTestAgent({
      guard: {
        spawn: true,
        background: false,
        binary: wrapper,
        args: ['--backend', 'fanotify'],
        roots: { binDirs: [path.join(tree, 'bin')], trees: [], proc: null, packageFiles: [], maxDepth: 1, maxEntries: 1000 },
        client: { backoff: { minMs: 50, maxMs: 500 } },
      },
    });
    client = new AgentClient(agent.socketPath, { timeoutMs: 20_000 });
    await client.call('module.switch', { modules: ['process'], status: 1 });
    await client.call('process.rules.add', { rule: { process: tool(), deny_start: true } });
    for (let i = 0; i < 100; i += 1) {
      const list = await client.call('process.rules.list', { offset: 0, limit: 10 });
      if (list.list[0]?.state === 'active') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 60_000);

  afterAll(async () => {
    client?.close();
    await agent?.dispose();
    await rm(tree, { recursive: true, force: true });
  });

  it('the denied program does not start, another copy does, and the denial is a start event', async () => {
    expect((await client.call('process.rules.list', { offset: 0, limit: 10 })).list[0]!.state).toBe('active');
    const denied = runIn(tool());
    expect(denied.status).not.toBe(0);
    expect(denied.stderr).toMatch(/Operation not permitted|Permission denied/);
    expect(runIn(other()).status).toBe(0);

    let events: { kind: string; params: Record<string, string | number> }[] = [];
    for (let i = 0; i < 50 && !events.length; i += 1) {
      events = (await client.call('events.query', { limit: 50 })).list.filter((e) => e.kind === 'process.start_denied');
      if (!events.length) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(events[0]).toMatchObject({ module: 'process', params: { op: 'x', rule: expect.stringMatching(/^process:\d+:start$/) } });
    expect(String(events[0]!.params['path'])).toContain('bin/tool');

    // module off: it starts again
    await client.call('module.switch', { modules: ['process'], status: 0 });
    expect(runIn(tool()).status).toBe(0);
  });

  it("a file access rule denies its program's writes under the path; another program still writes there", async () => {
    await client.call('module.switch', { modules: ['process'], status: 1 });
    const { ids } = await client.call('process.rules.add', { rule: { process: writer(), files: [{ path: data(), ops: ['w'], level: 1, action: 'deny' }] } });
    let state = '';
    for (let i = 0; i < 100 && state !== 'active'; i += 1) {
      state = (await client.call('process.rules.list', { offset: 0, limit: 10 })).list.find((rule) => rule.id === ids[0])?.state ?? '';
      if (state !== 'active') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(state).toBe('active');
    const shell = (exe: string, script: string) => spawnSync('nsenter', ['-t', String(agent.guard.helperPid), '-m', '--', exe, '-c', script], { encoding: 'utf8', timeout: 10_000 });
    const denied = shell(writer(), `echo x > '${data()}/by-writer'`);
    expect(denied.status).not.toBe(0);
    expect(denied.stderr).toMatch(/Operation not permitted|Permission denied/);
    expect(shell('/bin/sh', `echo y > '${data()}/by-sh' && cat '${data()}/by-sh'`).stdout).toBe('y\n');
    // reading is not what the rule denies
    expect(shell(writer(), `cat '${data()}/by-sh'`).stdout).toBe('y\n');

    let events: { kind: string; params: Record<string, string | number> }[] = [];
    for (let i = 0; i < 50 && !events.length; i += 1) {
      events = (await client.call('events.query', { limit: 50 })).list.filter((e) => e.kind === 'process.file_denied');
      if (!events.length) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(events[0]).toMatchObject({ module: 'process', params: { op: 'w', process: writer(), rule: `process:${ids[0]}:file0` } });
  });
});
