import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { dirname, join } from 'node:path';

const main = join(import.meta.dirname, '..', '..', '..', 'gateway', 'src', 'main.ts');

/** A port on loopback nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** An origin on loopback that answers every request with the path it saw. */
export async function startEchoOrigin(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => res.end(`origin saw ${req.url}`));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export interface RealGateway {
  /** Everything the gateway wrote to stderr so far: its generations and failures, for test messages. */
  stderr: () => string;
  stop: () => Promise<void>;
}

/**
 * The real gateway (apps/gateway/src/main.ts) with one worker, on the file the console writes;
 * resolves once its admin socket is there (the console can then reload it).
 */
export async function startRealGateway(configFile: string, adminSocket: string): Promise<RealGateway> {
  mkdirSync(dirname(adminSocket), { recursive: true });
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', main, '--config', configFile, '--admin-socket', adminSocket, '--workers', '1'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (let i = 0; i < 200 && !existsSync(adminSocket); i++) await new Promise((r) => setTimeout(r, 50));
  return {
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
