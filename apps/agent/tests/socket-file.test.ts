import { link, lstat, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RawClient, startTestAgent, useCleanups } from './helpers.ts';

const { cleanups, tempDir } = useCleanups();

describe('the socket file', () => {
  it('is mode 0660 and owned by root without a group option', async () => {
    const agent = await startTestAgent({ dir: await tempDir() });
    cleanups.push(() => agent.close());
    const stats = await stat(agent.socketPath);
    expect(stats.isSocket()).toBe(true);
    expect(stats.mode & 0o777).toBe(0o660);
    expect(stats.uid).toBe(0);
  });

  it('is root:<gid> 0660 when a group is given', async () => {
    const agent = await startTestAgent({ dir: await tempDir(), socketGroupId: 4242 });
    cleanups.push(() => agent.close());
    const stats = await stat(agent.socketPath);
    expect(stats.mode & 0o777).toBe(0o660);
    expect(stats.uid).toBe(0);
    expect(stats.gid).toBe(4242);
  });

  it('creates missing parent directories', async () => {
    const dir = await tempDir();
    const agent = await startTestAgent({ dir, socketPath: path.join(dir, 'run', 'deep', 'agent.sock') });
    cleanups.push(() => agent.close());
    expect((await stat(agent.socketPath)).isSocket()).toBe(true);
  });

  it('replaces a stale socket left by a crash', async () => {
    const dir = await tempDir();
    const socketPath = path.join(dir, 'agent.sock');
    // A socket inode nobody listens on: hard-link a live socket, then close the original.
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(dir, 'old.sock'), resolve));
    await link(path.join(dir, 'old.sock'), socketPath);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect((await lstat(socketPath)).isSocket()).toBe(true);

    const agent = await startTestAgent({ dir });
    cleanups.push(() => agent.close());
    const client = await RawClient.connect(socketPath);
    expect((await client.request(1, 'module.list')).ok).toBe(true);
    client.end();
  });

  it('refuses to start over a live agent, or over a file that is not a socket', async () => {
    const dir = await tempDir();
    const first = await startTestAgent({ dir });
    cleanups.push(() => first.close());
    await expect(startTestAgent({ dir })).rejects.toThrow(/already listening/);
    // The first agent still owns and serves its socket.
    const client = await RawClient.connect(first.socketPath);
    expect((await client.request(1, 'module.list')).ok).toBe(true);
    client.end();

    const other = await tempDir();
    await writeFile(path.join(other, 'agent.sock'), 'precious data');
    await expect(startTestAgent({ dir: other })).rejects.toThrow(/not a socket/);
  });

  it('is removed by close(), which also ends open connections', async () => {
    const agent = await startTestAgent({ dir: await tempDir() });
    const client = await RawClient.connect(agent.socketPath);
    await agent.close();
    await client.waitForClose();
    await expect(lstat(agent.socketPath)).rejects.toMatchObject({ code: 'ENOENT' });
    await agent.close(); // idempotent
  });
});
