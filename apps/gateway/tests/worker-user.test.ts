import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommand } from '../src/admin-socket.ts';
import { freePort, request, startEchoServer, waitForPort } from './harness/origin.ts';
import { stopGatewayProcess, waitForAdminSocket } from './harness/gateway-process.ts';

/*
 * The workers that parse traffic run unprivileged even when the primary is root (it binds the low
 * ports). `nobody` stands in for the service user. The inspector is the test stand-in for the engine.
 */
const main = join(import.meta.dirname, '..', 'src', 'main.ts');
const testInspector = join(import.meta.dirname, 'harness', 'test-inspector.ts');
const nobody = { uid: 65534, gid: 65534 };
const uidOf = (pid: number) => Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);

describe.skipIf(process.getuid?.() !== 0)('gateway workers as an unprivileged user', () => {
  let echo: Awaited<ReturnType<typeof startEchoServer>>;
  let gateway: ChildProcess;
  let dir: string;
  let port: number;
  let adminPath: string;

  beforeAll(async () => {
    echo = await startEchoServer();
    dir = mkdtempSync(join(tmpdir(), 'gw-user-'));
    chmodSync(dir, 0o755);
    const configPath = join(dir, 'gateway.json');
    adminPath = join(dir, 'admin.sock');
    port = await freePort();
    writeFileSync(configPath, JSON.stringify({
      workers: 1,
      sites: [{ id: 'shop', name: 'Shop', status: 'on', listen: [{ address: '127.0.0.1', port }], upstreams: [{ url: `http://127.0.0.1:${echo.port}` }] }],
    }));
    gateway = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', main, '--config', configPath, '--admin-socket', adminPath, '--inspector', testInspector], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, RAMPART_GATEWAY_UID: String(nobody.uid), RAMPART_GATEWAY_GID: String(nobody.gid) },
    });
    await waitForPort(port, 20_000);
    // The admin socket opens after the first generation is running, a moment after its port answers.
    await waitForAdminSocket(adminPath);
  });
  afterAll(async () => {
    await stopGatewayProcess(gateway);
    await echo?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves and blocks from a worker that is not root, under a root primary', async () => {
    const { workers } = (await adminCommand(adminPath, 'status')) as { workers: number[] };
    expect(workers).toHaveLength(1);
    expect(uidOf(workers[0]!)).toBe(nobody.uid);
    expect(uidOf(gateway.pid!)).toBe(0);
    expect((await request({ host: '127.0.0.1', port, path: '/hello' })).status).toBe(200);
    expect((await request({ host: '127.0.0.1', port, path: '/?q=attack-marker' })).status).toBe(403);
  });
});
