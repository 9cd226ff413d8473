import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Waits until the gateway's admin socket exists: it opens after the first generation runs, a moment after its port answers. */
export async function waitForAdminSocket(path: string, timeoutMs = 10_000): Promise<void> {
  for (const until = Date.now() + timeoutMs; !existsSync(path) && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
}

/** Stops a gateway process started by a test (SIGTERM: it drains its workers) and waits for its exit. */
export async function stopGatewayProcess(gateway: ChildProcess | undefined): Promise<void> {
  if (!gateway || gateway.exitCode !== null) return;
  const exited = new Promise((r) => gateway.once('exit', r));
  gateway.kill('SIGTERM');
  await exited;
}
