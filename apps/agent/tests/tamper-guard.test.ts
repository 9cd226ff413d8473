import { spawn, spawnSync } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentClient } from '@rampart/agent-client';
import { startTestAgent, type TestAgent } from './helpers.ts';

/*
 * End to end, as root, with the real helper (apps/guard/build/rampart-guard) in `--backend fanotify`
 * mode: a rule protects a /tmp test tree against writes; a copy of /bin/sh (its own inode) is denied
 * with EPERM, an exempt copy may write, and the denial arrives in the event store.
 *
 * The helper runs in a private mount namespace whose test tree is a bind mount of itself, so any
 * mount mark it places covers that bind mount only (never the host's root filesystem); the writers
 * enter that namespace with nsenter.
 */

const helperBin = path.resolve(import.meta.dirname, '../../guard/build/rampart-guard');

/** Says hello to the helper in fanotify mode; returns why the end-to-end test cannot run, or null. */
async function whyNot(): Promise<string | null> {
  if (process.geteuid?.() !== 0) return 'not running as root';
  if (!existsSync(helperBin)) return 'apps/guard/build/rampart-guard is not built (make -C apps/guard)';
  for (const tool of ['unshare', 'nsenter']) if (spawnSync('which', [tool]).status !== 0) return `${tool} is not installed`;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rampart-guard-probe-'));
  const socketPath = path.join(dir, 'probe.sock');
  const child = spawn('unshare', ['-m', '--propagation', 'private', helperBin, '--socket', socketPath, '--backend', 'fanotify', '--pin-dir', path.join(dir, 'pins')], { stdio: ['pipe', 'ignore', 'ignore'] });
  try {
    for (let i = 0; i < 60 && !existsSync(socketPath); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    if (!existsSync(socketPath)) return 'the helper did not open its socket in --backend fanotify mode';
    const hello = await new Promise<Record<string, unknown> | null>((resolve) => {
      const socket = net.connect(socketPath);
      let buffer = '';
      const timer = setTimeout(() => resolve(null), 3000);
      socket.on('data', (chunk) => {
        buffer += chunk.toString('utf8');
        if (!buffer.includes('\n')) return;
        clearTimeout(timer);
        socket.destroy();
        resolve((JSON.parse(buffer.slice(0, buffer.indexOf('\n'))) as { hello?: Record<string, unknown> }).hello ?? null);
      });
      socket.on('error', () => resolve(null));
      socket.write('{"id":1,"op":"hello"}\n');
    });
    if (!hello) return 'the helper did not answer hello';
    if (hello['backend'] !== 'fanotify') return `the helper's fanotify backend is not ready (apps/guard/src/fanotify.c): hello says backend ${String(hello['backend'])}, cause ${String(hello['cause'])}`;
    return null;
  } finally {
    child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}

const helperMissing = process.geteuid?.() !== 0 ? 'not running as root' : existsSync(helperBin) ? null : 'apps/guard/build/rampart-guard is not built (make -C apps/guard)';

describe.skipIf(helperMissing !== null)(`the agent and the real helper on a kernel that refuses BPF LSM${helperMissing ? ` — skipped: ${helperMissing}` : ''}`, () => {
  it('the agent starts the helper, reads its hello, and reports why nothing is enforced; closing stops it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rampart-tamper-lsm-'));
    const agent = await startTestAgent({
      guard: { spawn: true, background: false, binary: helperBin, args: ['--backend', 'lsm', '--pin-dir', path.join(dir, 'pins')], socketPath: path.join(dir, 'guard.sock'), client: { backoff: { minMs: 50, maxMs: 200 } } },
    });
    const client = new AgentClient(agent.socketPath, { timeoutMs: 10_000 });
    try {
      await client.call('module.switch', { modules: ['tamper'], status: 1 });
      await client.call('tamper.rules.add', { rules: [{ path: dir, process: '*', level: 10, ops: ['w'] }] });
      let status = await client.call('tamper.status', {});
      for (let i = 0; i < 100 && !status.running; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = await client.call('tamper.status', {});
      }
      expect(status).toMatchObject({ backend: 'none', running: true, enforced_ops: [], causes: ['guard_no_backend'], kernel: os.release() });
      expect((await client.call('tamper.rules.list', { offset: 0, limit: 10 })).list[0]!.state).toBe('not_enforced');
      expect((await client.call('host.info', {})).kernelStatus.causes).toEqual(expect.arrayContaining(['guard_no_backend']));
      const pid = agent.guard.helperPid!;
      expect(pid).toBeGreaterThan(0);
      client.close();
      await agent.dispose();
      expect(() => process.kill(pid, 0)).toThrow();
    } finally {
      client.close();
      await agent.dispose();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

const skipReason = await whyNot();
if (skipReason) console.warn(`tamper end-to-end test skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)(`tamper protection with the real helper (fanotify)${skipReason ? ` — skipped: ${skipReason}` : ''}`, () => {
  let tree: string;
  let agent: TestAgent;
  let client: AgentClient;
  const index = () => path.join(tree, 'site/index.html');
  /** Runs `sh -c script` with this shell binary inside the helper's mount namespace. */
  const runIn = (shell: string, script: string) => spawnSync('nsenter', ['-t', String(agent.guard.helperPid), '-m', '--', shell, '-c', script], { encoding: 'utf8', timeout: 10_000 });

  beforeAll(async () => {
    tree = await mkdtemp(path.join(os.tmpdir(), 'rampart-tamper-e2e-'));
    await mkdir(path.join(tree, 'site'), { recursive: true });
    await mkdir(path.join(tree, 'bin'));
    await writeFile(index(), 'original\n');
    // Copies, not links: each has its own inode, so the rule restricts exactly these.
    await copyFile('/bin/sh', path.join(tree, 'bin/sh'));
    await copyFile('/bin/sh', path.join(tree, 'bin/deploy'));
    await chmod(path.join(tree, 'bin/sh'), 0o755);
    await chmod(path.join(tree, 'bin/deploy'), 0o755);
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
    await client.call('module.switch', { modules: ['tamper'], status: 1 });
    await client.call('tamper.rules.add', { rules: [{ path: path.join(tree, 'site'), process: `${tree}/bin/*`, exempt: [`${tree}/bin/deploy`], level: 10, ops: ['w'] }] });
    for (let i = 0; i < 100; i += 1) {
      const list = await client.call('tamper.rules.list', { offset: 0, limit: 10 });
      if (list.list[0]?.state === 'active') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 60_000);

  afterAll(async () => {
    client?.close();
    await agent?.dispose();
    await rm(tree, { recursive: true, force: true });
  });

  it('the restricted copy of sh gets EPERM, the exempt one writes, and the denial is an event', async () => {
    expect(await client.call('tamper.status', {})).toMatchObject({ backend: 'fanotify', running: true });
    expect((await client.call('tamper.rules.list', { offset: 0, limit: 10 })).list[0]!.state).toBe('active');

    const denied = runIn(path.join(tree, 'bin/sh'), `echo hacked >> '${index()}'`);
    expect(denied.status).not.toBe(0);
    expect(denied.stderr).toMatch(/Operation not permitted/);
    expect(await readFile(index(), 'utf8')).toBe('original\n');

    const allowed = runIn(path.join(tree, 'bin/deploy'), `echo deployed >> '${index()}'`);
    expect(allowed.status).toBe(0);
    expect(await readFile(index(), 'utf8')).toBe('original\ndeployed\n');

    let events: { kind: string; params: Record<string, string | number> }[] = [];
    for (let i = 0; i < 50 && !events.length; i += 1) {
      events = (await client.call('events.query', { limit: 50 })).list.filter((e) => e.kind === 'tamper.denied');
      if (!events.length) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(events[0]).toMatchObject({ params: { op: 'w', process: `${tree}/bin/sh`, rule: expect.stringMatching(/^tamper:\d+$/) } });
    expect(String(events[0]!.params['path'])).toContain('index.html');

    // the rule's notification is on: one notice, sent by the alert methods
    const notices = (await client.call('notices.list', { offset: 0, limit: 50 })).list.filter((n) => n.kind === 'guard_denied');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.params).toMatchObject({ module: 'tamper', op: 'w', process: `${tree}/bin/sh` });

    // module off: the same write goes through
    await client.call('module.switch', { modules: ['tamper'], status: 0 });
    expect(runIn(path.join(tree, 'bin/sh'), `echo later >> '${index()}'`).status).toBe(0);
  });
});
