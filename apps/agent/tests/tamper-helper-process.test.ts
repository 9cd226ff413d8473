import { existsSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HelperProcess } from '../src/tamper/helper-process.ts';
import { FakeHelper } from '../../../packages/guard/tests/fake-helper.ts';
import { useCleanups } from './helpers.ts';

/* Starting, restarting and stopping the guard helper child, with small scripts standing in for it. */

const { cleanups, tempDir } = useCleanups();

async function script(dir: string, name: string, body: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}

async function until(ok: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('guard helper process', () => {
  it('starts the binary with --socket and its args, and stops it with the agent', async () => {
    const dir = await tempDir();
    const argsFile = path.join(dir, 'args');
    const binary = await script(dir, 'helper', `echo "$@" > '${argsFile}'\nexec sleep 60`);
    const logs: string[] = [];
    const helper = new HelperProcess({ binary, socketPath: path.join(dir, 'g.sock'), args: ['--backend', 'fanotify'], log: (l) => logs.push(l), isRoot: true });
    cleanups.push(() => helper.stop());
    await helper.start();
    await until(() => helper.state === 'running');
    const pid = helper.pid!;
    expect(pid).toBeGreaterThan(0);
    await until(() => existsSync(argsFile));
    expect((await readFile(argsFile, 'utf8')).trim()).toBe(`--socket ${path.join(dir, 'g.sock')} --backend fanotify`);
    await helper.stop();
    expect(helper.state).toBe('stopped');
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it('restarts a helper that exits, and says helper_failed after repeated quick exits', async () => {
    const dir = await tempDir();
    const counter = path.join(dir, 'runs');
    const binary = await script(dir, 'helper', `echo run >> '${counter}'\nexit 3`);
    const helper = new HelperProcess({ binary, socketPath: path.join(dir, 'g.sock'), args: [], log: () => undefined, isRoot: true, backoff: { minMs: 10, maxMs: 40 }, failAfter: 3 });
    cleanups.push(() => helper.stop());
    await helper.start();
    await until(() => helper.state === 'helper_failed');
    await helper.stop();
  });

  it('does not start anything when the socket is already served, when not root, or when the binary is missing', async () => {
    const dir = await tempDir();
    const socketPath = path.join(dir, 'g.sock');
    const fake = await FakeHelper.listen(socketPath);
    cleanups.push(() => fake.close());
    const external = new HelperProcess({ binary: '/bin/false', socketPath, args: [], log: () => undefined, isRoot: true });
    await external.start();
    expect(external.state).toBe('external');
    const notRoot = new HelperProcess({ binary: '/bin/false', socketPath: path.join(dir, 'other.sock'), args: [], log: () => undefined, isRoot: false });
    await notRoot.start();
    expect(notRoot.state).toBe('not_root');
    const missing = new HelperProcess({ binary: path.join(dir, 'nope'), socketPath: path.join(dir, 'other.sock'), args: [], log: () => undefined, isRoot: true });
    await missing.start();
    expect(missing.state).toBe('helper_missing');
    expect(missing.pid).toBeNull();
  });
});
