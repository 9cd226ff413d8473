import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NftScript } from './nft-json.ts';

/* Running nft. The planner never calls this; the agent passes an executor in, tests pass one
   bound to a network namespace. */

export class NftError extends Error {
  readonly stderr: string;
  constructor(message: string, stderr: string) {
    super(message);
    this.name = 'NftError';
    this.stderr = stderr;
  }
}

export interface NftExecutor {
  /** Applies a JSON script as one transaction (`nft -j -f <file>`). */
  apply(script: NftScript): Promise<void>;
  /** Runs a read command (`nft -j <args>`) and returns its parsed JSON. */
  read(args: readonly string[]): Promise<unknown>;
}

export interface NftExecutorOptions {
  nftPath?: string;
  /** Run inside this network namespace (tests). */
  netns?: string;
}

function run(argv: readonly string[], input: string | null): Promise<string> {
  return new Promise((resolve, reject) => {
    const [command = 'nft', ...args] = argv;
    // TZ=UTC: remote windows are planned in UTC already, and nft would otherwise convert `meta hour` from its local time.
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, TZ: 'UTC' } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => reject(new NftError(`cannot run nft: ${error.message}`, '')));
    child.on('close', (code) => {
      const stderr = Buffer.concat(err).toString('utf8');
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new NftError(`nft failed (${code}): ${stderr.trim().split('\n').slice(0, 3).join(' | ')}`, stderr));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
  });
}

export function createNftExecutor(options: NftExecutorOptions = {}): NftExecutor {
  const prefix = options.netns ? ['ip', 'netns', 'exec', options.netns] : [];
  const nft = options.nftPath ?? 'nft';
  return {
    async apply(script) {
      if (script.nftables.length === 0) return;
      // Through a private file, not stdin: nft opens /dev/stdin, which fails on the socket Node gives a child.
      const dir = await mkdtemp(path.join(tmpdir(), 'rampart-nft-'));
      try {
        const file = path.join(dir, 'ruleset.json');
        await writeFile(file, JSON.stringify(script), { mode: 0o600 });
        await run([...prefix, nft, '-j', '-f', file], null);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    async read(args) {
      const text = await run([...prefix, nft, '-j', ...args], null);
      return text.trim() === '' ? { nftables: [] } : (JSON.parse(text) as unknown);
    },
  };
}
