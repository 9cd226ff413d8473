import { spawnSync } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentClient } from '@rampart/agent-client';
import { rebuildGuardIfChanged } from '../src/home/guard-build.ts';
import { startTestAgent, type TestAgent } from './helpers.ts';

/*
 * The driver update (home.update_kernel) with the real helper in `--backend fanotify` mode, in a
 * private mount namespace over a /tmp tree (as tamper-guard.test.ts does, so no mark reaches the
 * host's filesystems): the helper is restarted (a new pid), the answer's kernel status is what
 * host.info reads, a second call meanwhile is refused, and the rule denies writes again afterwards.
 */

const helperBin = path.resolve(import.meta.dirname, '../../guard/build/rampart-guard');
const skip = process.geteuid?.() !== 0 ? 'not running as root' : existsSync(helperBin) ? (spawnSync('which', ['nsenter']).status === 0 ? null : 'nsenter is not installed') : 'the helper is not built (make -C apps/guard)';

describe.skipIf(skip !== null)(`driver update with the real helper${skip ? ` — skipped: ${skip}` : ''}`, () => {
  let tree: string;
  let agent: TestAgent;
  let client: AgentClient;
  const index = () => path.join(tree, 'site/index.html');
  const runIn = (shell: string, script: string) => spawnSync('nsenter', ['-t', String(agent.guard.helperPid), '-m', '--', shell, '-c', script], { encoding: 'utf8', timeout: 10_000 });
  const ruleState = async () => (await client.call('tamper.rules.list', { offset: 0, limit: 10 })).list[0]?.state;

  beforeAll(async () => {
    tree = await mkdtemp(path.join(os.tmpdir(), 'rampart-kernel-update-'));
    await mkdir(path.join(tree, 'site'), { recursive: true });
    await mkdir(path.join(tree, 'bin'));
    await writeFile(index(), 'original\n');
    await copyFile('/bin/sh', path.join(tree, 'bin/sh'));
    await chmod(path.join(tree, 'bin/sh'), 0o755);
    const wrapper = path.join(tree, 'guard-ns.sh');
    await writeFile(wrapper, `#!/bin/sh\nexec unshare -m --propagation private /bin/sh -c 'mount --bind "$0" "$0" && exec "$@"' '${tree}' '${helperBin}' "$@" --pin-dir '${path.join(tree, 'pins')}'\n`);
    await chmod(wrapper, 0o755);
    agent = await startTestAgent({
      guard: {
        spawn: true, background: false, binary: wrapper, args: ['--backend', 'fanotify'],
        roots: { binDirs: [path.join(tree, 'bin')], trees: [], proc: null, packageFiles: [], maxDepth: 1, maxEntries: 1000 },
        client: { backoff: { minMs: 50, maxMs: 500 } },
      },
    });
    client = new AgentClient(agent.socketPath, { timeoutMs: 30_000 });
    await client.call('module.switch', { modules: ['tamper'], status: 1 });
    await client.call('tamper.rules.add', { rules: [{ path: path.join(tree, 'site'), process: `${tree}/bin/*`, level: 10, ops: ['w'] }] });
    for (let i = 0; i < 100 && (await ruleState()) !== 'active'; i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
  }, 60_000);

  afterAll(async () => {
    client?.close();
    await agent?.dispose();
    await rm(tree, { recursive: true, force: true });
  });

  it('restarts the helper, answers the kernel status host.info reads, refuses a second call meanwhile, and enforces the rules again', async () => {
    expect(await ruleState()).toBe('active');
    const before = agent.guard.helperPid;
    const [first, second] = await Promise.all([client.call('home.update_kernel', {}), client.call('home.update_kernel', {})]);
    const [done, refused] = first.refused === null ? [first, second] : [second, first];
    expect(refused.refused).toBe('update_kernel_busy');
    expect(done).toMatchObject({ refused: null, helper: 'restarted', build: 'no_build_step' });
    expect(done.status).toEqual((await client.call('host.info', {})).kernelStatus);
    expect(agent.guard.helperPid).not.toBe(before);
    expect(await client.call('tamper.status', {})).toMatchObject({ backend: 'fanotify', running: true });
    expect(await ruleState()).toBe('active');
    // Enforced again by the new helper: the restricted shell cannot write.
    const denied = runIn(path.join(tree, 'bin/sh'), `echo hacked >> '${index()}'`);
    expect(denied.stderr).toMatch(/Operation not permitted/);
    expect(await readFile(index(), 'utf8')).toBe('original\n');
  }, 60_000);
});

describe.skipIf(spawnSync('which', ['make']).status !== 0)('the helper build step', () => {
  it('builds only when an input changed, says when there is no build step, and reports a failed build', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rampart-guard-build-'));
    try {
      await mkdir(path.join(dir, 'src'));
      await writeFile(path.join(dir, 'src/in.txt'), 'v1\n');
      await writeFile(path.join(dir, 'Makefile'), 'build/rampart-guard: src/in.txt\n\tmkdir -p build && cp src/in.txt build/rampart-guard\n');
      const binary = path.join(dir, 'build/rampart-guard');
      expect(await rebuildGuardIfChanged(binary)).toEqual({ outcome: 'rebuilt' });
      expect(await rebuildGuardIfChanged(binary)).toEqual({ outcome: 'up_to_date' });
      await writeFile(path.join(dir, 'src/in.txt'), 'v2\n');
      const later = new Date(Date.now() + 5000);
      await utimes(path.join(dir, 'src/in.txt'), later, later);
      expect(await rebuildGuardIfChanged(binary)).toEqual({ outcome: 'rebuilt' });
      expect(await readFile(binary, 'utf8')).toBe('v2\n');
      expect(await rebuildGuardIfChanged(path.join(dir, 'elsewhere/rampart-guard'))).toEqual({ outcome: 'no_build_step' });
      await writeFile(path.join(dir, 'Makefile'), 'build/rampart-guard: src/in.txt\n\tfalse\n');
      await utimes(path.join(dir, 'src/in.txt'), new Date(Date.now() + 10_000), new Date(Date.now() + 10_000));
      const failed = await rebuildGuardIfChanged(binary);
      expect(failed.outcome).toBe('failed');
      expect(await readFile(binary, 'utf8')).toBe('v2\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
