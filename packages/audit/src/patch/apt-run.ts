import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/**
 * Where apt works. Production: no options (apt's own defaults, the host's package state). Tests
 * pass a sandbox: Dir::Etc::SourceList, Dir::State, Dir::Cache, Dir::State::status, and for
 * installs dpkg's `--root`/`--admindir`, so apt runs for real without touching the host's packages.
 */
export interface AptConfig {
  /** apt `-o` options, "Name=value" each. */
  options: readonly string[];
  /** The root whose `/run/reboot-required` an install may write ('/' in production). */
  root: string;
  /**
   * Extra environment: a sandbox sets APT_CONFIG to its own apt.conf, which apt reads before
   * /etc/apt/apt.conf.d, so it can point `Dir::Etc::parts` away from the host's hooks.
   */
  env?: Readonly<Record<string, string>>;
}

export const hostApt: AptConfig = { options: [], root: '/' };

export interface AptRunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface AptRunHooks {
  /** Each line apt writes to APT::Status-Fd (dlstatus:, pmstatus:, pmerror:). */
  onStatus?: (line: string) => void;
  onStdout?: (line: string) => void;
}

/** Kept small: apt's answers here are lists of packages, not downloads. */
const maxKept = 8 * 1024 * 1024;

function lines(stream: Readable, sink: string[], hook?: (line: string) => void): Promise<void> {
  return new Promise((resolve) => {
    let kept = 0;
    const rl = createInterface({ input: stream, crlfDelay: Infinity });
    rl.on('line', (line) => {
      if (kept < maxKept) {
        sink.push(line);
        kept += line.length + 1;
      }
      hook?.(line);
    });
    rl.on('close', () => resolve());
  });
}

/**
 * Runs an apt tool (apt-get, apt-cache, apt-config) with the config's options, noninteractive and
 * keeping changed configuration files (`--force-confold`), apt's progress on fd 3. A tool that
 * cannot start answers code 127 like a shell.
 */
export function runApt(tool: string, args: readonly string[], config: AptConfig, hooks: AptRunHooks = {}): Promise<AptRunResult> {
  const argv = [...config.options.flatMap((o) => ['-o', o]), '-o', 'APT::Status-Fd=3', '-o', 'Dpkg::Options::=--force-confold', '-o', 'Dpkg::Options::=--force-confdef', ...args];
  return new Promise((resolve) => {
    const child = spawn(tool, argv, {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...config.env, LC_ALL: 'C', DEBIAN_FRONTEND: 'noninteractive', APT_LISTCHANGES_FRONTEND: 'none' },
    });
    const out: string[] = [];
    const err: string[] = [];
    const done = Promise.all([
      lines(child.stdout!, out, hooks.onStdout),
      lines(child.stderr!, err),
      lines(child.stdio[3] as Readable, [], hooks.onStatus),
    ]);
    child.on('error', (error) => {
      resolve({ code: 127, stdout: '', stderr: error.message });
    });
    child.on('close', (code, signal) => {
      void done.then(() => resolve({ code: code ?? (signal ? 128 : 1), stdout: out.join('\n'), stderr: err.join('\n') }));
    });
  });
}
