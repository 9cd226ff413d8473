import { mkdtempSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommand, listenAdminSocket, maxCommandLine, maxTimedLine } from '../src/admin-socket.ts';

/** The admin socket's framing on its own: line limits, order of answers, refused garbage. */
describe('admin socket lines', () => {
  let dir: string;
  let path: string;
  let server: net.Server;
  const seen: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-admin-'));
    path = join(dir, 'admin.sock');
    server = await listenAdminSocket(path, async (command) => {
      seen.push(command.slice(0, 20));
      if (command === 'slow') await new Promise((r) => setTimeout(r, 100));
      if (command.startsWith('timed ')) return { ok: true, length: command.length };
      return { ok: true, command };
    });
  });
  afterAll(() => {
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is owner-only', () => {
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('takes a timed line of several MiB, in many chunks', async () => {
    const line = `timed ${'x'.repeat(maxTimedLine - 10)}`;
    expect(await adminCommand(path, line)).toEqual({ ok: true, length: line.length });
  });

  it('closes the connection on an ordinary line past 4096 characters, or a timed line past 4 MiB, without running it', async () => {
    const before = seen.length;
    await expect(adminCommand(path, 'status' + ' '.repeat(maxCommandLine))).rejects.toThrow(/closed/);
    await expect(adminCommand(path, `timed ${'x'.repeat(maxTimedLine)}`)).rejects.toThrow(/closed/);
    expect(seen.length).toBe(before);
  });

  it('answers in the order the commands came, even when an earlier one is slower', async () => {
    const lines = await new Promise<string[]>((resolve, reject) => {
      const socket = net.connect(path);
      let text = '';
      socket.on('connect', () => socket.write('slow\nfast\n'));
      socket.on('data', (c) => {
        text += c.toString();
        const got = text.split('\n').filter(Boolean);
        if (got.length === 2) {
          socket.end();
          resolve(got);
        }
      });
      socket.on('error', reject);
    });
    expect(lines.map((l) => (JSON.parse(l) as { command: string }).command)).toEqual(['slow', 'fast']);
  });
});
