import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';

export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
export const nodeBin = `${repoRoot}node_modules/.bin/node`;

export interface RunningAuthority {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop: () => Promise<number | null>;
}

/** Starts `apps/licence/src/main.ts` on a free port and waits for its ready line. */
export async function startAuthority(dbPath: string): Promise<RunningAuthority> {
  const child = spawn(nodeBin, ['apps/licence/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, RAMPART_LICENCE_PORT: '0', RAMPART_LICENCE_HOST: '127.0.0.1', RAMPART_LICENCE_DB: dbPath },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = once(child, 'exit').then(([code]) => code as number | null);

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`authority did not start in time; stderr: ${err}`)), 15_000);
    const check = (): void => {
      const match = /^licence authority listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`authority exited early with ${code}; stderr: ${err}`));
    });
  });

  return {
    child,
    url,
    stdout: () => out,
    stderr: () => err,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `rampart <args>` through the real bin script. */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const child = spawn(nodeBin, ['apps/cli/bin/rampart.js', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/** POSTs JSON and returns the status and parsed body. */
export async function postJson(url: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}
