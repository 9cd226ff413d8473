import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';

export const repo = join(import.meta.dirname, '../..');
const node = join(repo, 'node_modules/.bin/node');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningProduct {
  base: string;
  trialKey: string;
  dataDir: string;
  output: string[];
  stop(): Promise<void>;
  cli(...args: string[]): { status: number | null; stdout: string; stderr: string };
}

/**
 * Starts the whole product the way `npm start` does, on free ports, with its own data folder.
 * `env` adds variables for this product only (the audit test's RAMPART_AUDIT_ROOT).
 */
export async function startProduct(env: Record<string, string> = {}): Promise<RunningProduct> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rampart-e2e-'));
  chmodSync(dataDir, 0o755); // the console runs as `rampart` and must reach its folder inside
  const [port, licencePort] = [await freePort(), await freePort()];
  const proc: ChildProcess = spawn(node, [join(repo, 'apps/cli/src/main.ts'), 'start'], {
    env: {
      ...process.env, RAMPART_DATA_DIR: dataDir, RAMPART_PORT: String(port), RAMPART_LICENCE_PORT: String(licencePort),
      // Tests exercise the reboot path but never reboot the machine.
      RAMPART_DRY_REBOOT: '1',
      // ... nor set its clock after an NTP sync.
      RAMPART_DRY_CLOCK: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  createInterface({ input: proc.stderr! }).on('line', (l) => output.push(l));
  const lines = createInterface({ input: proc.stdout! });
  const started = await new Promise<{ base: string; trialKey: string }>((resolve, reject) => {
    let trialKey = '';
    const timer = setTimeout(() => reject(new Error(`product did not start:\n${output.join('\n')}`)), 60_000);
    proc.once('exit', (code) => reject(new Error(`product exited with ${code}:\n${output.join('\n')}`)));
    lines.on('line', (line) => {
      output.push(line);
      const key = /Trial licence key: (\w{3}-\w{3})/.exec(line);
      if (key) trialKey = key[1]!;
      const url = /Rampart console: (http:\/\/\S+?)\/?$/.exec(line);
      if (url) {
        clearTimeout(timer);
        resolve({ base: url[1]!, trialKey });
      }
    });
  });
  return {
    ...started,
    dataDir,
    output,
    cli: (...args) => {
      const r = spawnSync(node, [join(repo, 'apps/cli/bin/rampart.js'), ...args, '--data-dir', dataDir], { encoding: 'utf8' });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    },
    async stop() {
      if (proc.exitCode === null) {
        await new Promise<void>((resolve) => {
          proc.once('exit', () => resolve());
          proc.kill('SIGTERM');
        });
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A browser context that asks for reduced motion: the console then opens dialogs without their zoom
 * (apps/web/src/settings/useReducedMotion.ts), so a click is never given to a button still moving.
 */
export function newBrowserContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({ reducedMotion: 'reduce', ...options });
}

export function launchBrowser(): Promise<Browser> {
  const probe = spawnSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8' });
  if (probe.status !== 0) throw new Error('Debian chromium is missing: npm test installs it when run as root');
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
