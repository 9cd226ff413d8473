import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, lstat, rm } from 'node:fs/promises';
import path from 'node:path';
import { AgentClient } from '@rampart/agent-client';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from './helpers.ts';

const mainScript = path.join(import.meta.dirname, '..', 'src', 'main.ts');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

interface Started {
  child: ChildProcess;
  output: () => string;
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<void>;
  /** The exit code, or the signal's name if a signal ended it. */
  exited: Promise<number | string | null>;
}

/** Runs the real entry point with the same Node that runs the tests. */
function startMain(env: Record<string, string>, extra: { ipc?: boolean; uid?: number; gid?: number } = {}): Started {
  const child = spawn(process.execPath, [mainScript], {
    cwd: env.RAMPART_DATA_DIR,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    stdio: extra.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
    uid: extra.uid,
    gid: extra.gid,
  });
  let text = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer): void => {
    text += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return {
    child,
    output: () => text,
    exited,
    waitFor: (pattern, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (!pattern.test(text)) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no ${pattern} in output:\n${text}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
  };
}

async function dataDir(): Promise<string> {
  const dir = await makeTempDir();
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('main.ts, the agent process', () => {
  it('serves on <data>/run/agent.sock, dry-runs a reboot, and removes its socket on SIGTERM', async () => {
    const dir = await dataDir();
    const agent = startMain({ RAMPART_DATA_DIR: dir, RAMPART_DRY_REBOOT: '1' });
    const socketPath = path.join(dir, 'run', 'agent.sock');
    await agent.waitFor(/agent listening on (\S+)/);
    expect(agent.output()).toContain(`agent listening on ${socketPath}`);
    expect(agent.output()).not.toMatch(/not running as root/);

    const client = new AgentClient(socketPath);
    cleanups.push(() => client.close());
    expect(await client.call('server.reboot', {})).toEqual({ scheduled: true });
    await agent.waitFor(/reboot requested \(dry run\)/);
    // Module state lands under <data>/agent.
    await client.call('module.switch', { modules: ['firewall'], status: 1 });
    expect((await lstat(path.join(dir, 'agent', 'modules.json'))).isFile()).toBe(true);

    agent.child.kill('SIGTERM');
    expect(await agent.exited).toBe(0);
    await expect(lstat(socketPath)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('honours RAMPART_AGENT_SOCKET and RAMPART_SOCKET_GROUP, and stops on SIGINT', async () => {
    const dir = await dataDir();
    const socketPath = path.join(dir, 'custom', 'a.sock');
    // "root" (gid 0) exists in every /etc/group; the point is that the name is resolved.
    const agent = startMain({ RAMPART_DATA_DIR: dir, RAMPART_AGENT_SOCKET: socketPath, RAMPART_SOCKET_GROUP: 'root' });
    await agent.waitFor(/agent listening on/);
    const stats = await lstat(socketPath);
    expect(stats.mode & 0o777).toBe(0o660);
    expect(stats.gid).toBe(0);
    agent.child.kill('SIGINT');
    expect(await agent.exited).toBe(0);
    await expect(lstat(socketPath)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('fails to start, plainly, on an unknown socket group', async () => {
    const dir = await dataDir();
    const agent = startMain({ RAMPART_DATA_DIR: dir, RAMPART_SOCKET_GROUP: 'no-such-group-rampart' });
    expect(await agent.exited).toBe(1);
    expect(agent.output()).toMatch(/no group named "no-such-group-rampart"/);
  });

  it('asks its supervisor over IPC for a software restart', async () => {
    const dir = await dataDir();
    const agent = startMain({ RAMPART_DATA_DIR: dir }, { ipc: true });
    const message = new Promise<unknown>((resolve) => agent.child.once('message', resolve));
    await agent.waitFor(/agent listening on/);
    const client = new AgentClient(path.join(dir, 'run', 'agent.sock'));
    cleanups.push(() => client.close());
    expect(await client.call('software.restart', {})).toEqual({ scheduled: true });
    expect(await message).toEqual({ type: 'restart-software' });
    agent.child.kill('SIGTERM');
    expect(await agent.exited).toBe(0);
  });

  it('says plainly when it is not root, and keeps serving with kernel status abnormal', async () => {
    const dir = await dataDir();
    await chmod(dir, 0o777);
    const agent = startMain({ RAMPART_DATA_DIR: dir }, { uid: 65534, gid: 65534 });
    await agent.waitFor(/agent listening on/);
    expect(agent.output()).toMatch(/not running as root: kernel protection is unavailable/);
    // Root may connect to anything; the socket is owned by the unprivileged agent.
    const client = new AgentClient(path.join(dir, 'run', 'agent.sock'));
    cleanups.push(() => client.close());
    const info = await client.call('host.info', {});
    expect(info.kernelStatus.status).toBe('abnormal');
    expect(info.kernelStatus.causes).toContain('not_root');
    agent.child.kill('SIGTERM');
    expect(await agent.exited).toBe(0);
  });
});
