import { spawn } from 'node:child_process';

export interface RunResult {
  stdout: string;
  stderr: string;
  code: number;
}

export interface RunOptions {
  input?: string;
  /** Kills the command (SIGKILL) after this long; a hung tool must not hang the test run. */
  timeoutMs?: number;
}

/** Runs a command to completion and collects its output; a non-zero exit is returned, not thrown. */
export function run(argv: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const [command, ...args] = argv;
  if (command === undefined) return Promise.reject(new Error('run: empty argv'));
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code: code ?? (signal ? 128 : 1) });
    });
    // A command that does not read its stdin closes the pipe early; that is not our failure.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** Throws with the command and its stderr when it failed, so a broken setup step says what broke. */
export function assertSucceeded(result: RunResult, what: string): RunResult {
  if (result.code !== 0) {
    throw new Error(`${what} failed (exit ${result.code}): ${result.stderr.trim() || result.stdout.trim()}`);
  }
  return result;
}

/** `run` for setup steps that must work. */
export async function runOrThrow(argv: readonly string[], what: string, options?: RunOptions): Promise<RunResult> {
  return assertSucceeded(await run(argv, options), what);
}
