/**
 * Shared by the firewall benchmarks: arguments, cleanup on every exit path (also Ctrl-C), bare
 * network namespaces named like the test lab's (so a run killed with SIGKILL is swept by the next),
 * random public-looking addresses, a command run under a time cap, and table printing.
 */
import { spawn } from 'node:child_process';
import { NAMESPACE_PREFIX } from '../../packages/firewall/tests/support/lab-names.ts';
import { forget, removeNamespace, sweepDeadRuns, track } from '../../packages/firewall/tests/support/netns-cleanup.ts';
import { run, runOrThrow, type RunOptions, type RunResult } from '../../packages/firewall/tests/support/run.ts';

/* Arguments: `--name value`. */

export function stringArg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = process.argv[i + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`);
  return value;
}

export function numberArg(name: string, fallback: number): number {
  const value = Number(stringArg(name, String(fallback)));
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} needs a positive number`);
  return value;
}

/** `--sizes 100000,1000000`; `_` and `k`/`m` suffixes allowed (`100k,1m`). */
export function numberListArg(name: string, fallback: readonly number[]): number[] {
  const text = stringArg(name, fallback.join(','));
  return text.split(',').map((part) => {
    const match = /^([\d_.]+)([km]?)$/i.exec(part.trim());
    const value = match ? Number(match[1]!.replaceAll('_', '')) * ({ k: 1e3, m: 1e6 }[match[2]!.toLowerCase()] ?? 1) : NaN;
    if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name}: ${part} is not a positive whole number`);
    return value;
  });
}

const started = performance.now();
export function log(text: string): void {
  console.log(`[${((performance.now() - started) / 1000).toFixed(1).padStart(6)}s] ${text}`);
}

/* Cleanup: every resource registers its undo; they run last first, at the end, on failure, on a signal. */

const cleanups: Array<{ what: string; undo: () => Promise<void> | void }> = [];

/** Registers an undo; the returned function runs it now (once) and unregisters it. */
export function onCleanup(what: string, undo: () => Promise<void> | void): () => Promise<void> {
  const entry = { what, undo };
  cleanups.push(entry);
  return async () => {
    const i = cleanups.indexOf(entry);
    if (i < 0) return;
    cleanups.splice(i, 1);
    await entry.undo();
  };
}

async function runCleanups(): Promise<void> {
  while (cleanups.length > 0) {
    const entry = cleanups.pop()!;
    try {
      await entry.undo();
    } catch (error) {
      console.error(`cleanup of ${entry.what} failed: ${String(error)}`);
    }
  }
}

/**
 * Runs the benchmark; cleans up however it ends. On SIGINT/SIGTERM/SIGHUP the registered undos run
 * (at most 20 s), then the process exits; a second signal exits at once. Either way the lab's exit
 * hook still deletes every namespace it tracks (and kills what runs inside them).
 */
export async function main(body: () => Promise<void>): Promise<void> {
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) process.exit(130);
    interrupted = true;
    console.error(`\n${signal}: cleaning up (again to quit at once)`);
    const deadline = new Promise((resolve) => setTimeout(resolve, 20_000).unref());
    void Promise.race([runCleanups(), deadline]).finally(() => process.exit(130));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
  if (process.getuid?.() !== 0) {
    console.error('needs root: it creates network namespaces and loads rulesets into them');
    process.exitCode = 1;
    return;
  }
  sweepDeadRuns();
  try {
    await body();
  } catch (error) {
    // After a signal, the failures of work whose resources were just taken away are not news.
    if (!interrupted) console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exitCode = 1;
  } finally {
    if (!interrupted) await runCleanups();
  }
}

/* A bare namespace (loopback up, nothing else), for loading rulesets that see no traffic. */

export interface Namespace {
  name: string;
  exec(argv: readonly string[], options?: RunOptions): Promise<RunResult>;
  /** Empties its rulesets first (so the kernel's deferred teardown does not overlap the next measurement), then deletes it. */
  destroy(): Promise<void>;
}

let namespaceCount = 0;

export async function freshNamespace(label: string): Promise<Namespace> {
  namespaceCount += 1;
  // NAMESPACE_PREFIX + pid first: the lab's sweep removes it if this process dies without cleaning up.
  const name = `${NAMESPACE_PREFIX}${process.pid}-bench-${label}-${namespaceCount}`;
  track(name);
  const exec = (argv: readonly string[], options?: RunOptions) => run(['ip', 'netns', 'exec', name, ...argv], options);
  const destroy = onCleanup(`namespace ${name}`, async () => {
    await exec(['nft', 'flush', 'ruleset'], { timeoutMs: 120_000 });
    if ((await exec(['iptables-legacy', '-S', 'INPUT'], { timeoutMs: 5_000 })).stdout.includes('-A INPUT')) {
      await exec(['iptables-legacy', '-F', 'INPUT'], { timeoutMs: 120_000 });
    }
    removeNamespace(name);
    forget(name);
  });
  await runOrThrow(['ip', 'netns', 'add', name], 'ip netns add');
  await runOrThrow(['ip', '-n', name, 'link', 'set', 'lo', 'up'], 'lo up');
  return { name, exec, destroy };
}

/* Addresses. */

/** Deterministic pseudo-random numbers (mulberry32), so runs compare. */
export function randomSource(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** [network, prefix length] blocks that are not public unicast. */
const NOT_PUBLIC: ReadonlyArray<readonly [number, number]> = (
  [
    ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
    ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
    ['203.0.113.0', 24], ['224.0.0.0', 3],
  ] as const
).map(([text, len]) => [ipv4ToNumber(text), len] as const);

export function ipv4ToNumber(text: string): number {
  return text.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

export function numberToIpv4(n: number): string {
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

function isPublic(n: number): boolean {
  return NOT_PUBLIC.every(([net, len]) => (n >>> (32 - len)) !== (net >>> (32 - len)));
}

/** `count` distinct public-looking IPv4 addresses (no .0 or .255 host), none of them in `exclude`. */
export function randomPublicIPv4s(count: number, seed: number, exclude: readonly string[] = []): string[] {
  const random = randomSource(seed);
  const seen = new Set<number>(exclude.map(ipv4ToNumber));
  const out: string[] = [];
  while (out.length < count) {
    const n = Math.floor(random() * 4_294_967_296);
    const last = n & 255;
    if (last === 0 || last === 255 || !isPublic(n) || seen.has(n)) continue;
    seen.add(n);
    out.push(numberToIpv4(n));
  }
  return out;
}

/** What `iptables-restore` reads: one `-A INPUT -s IP -j DROP` per address, one table, one COMMIT. */
export function iptablesRestoreInput(addresses: readonly string[]): string {
  const lines = ['*filter'];
  for (const address of addresses) lines.push(`-A INPUT -s ${address} -j DROP`);
  lines.push('COMMIT', '');
  return lines.join('\n');
}

/* A command under a time cap. */

export interface CappedRun {
  code: number;
  stderr: string;
  seconds: number;
  capped: boolean;
  /** Of the input, how much the command had taken when it ended or was killed (the pipe holds at most 64 KiB more). */
  consumedBytes: number;
  totalBytes: number;
  /** Seconds until the whole input was taken (NaN if it never was). */
  inputReadSeconds: number;
}

/** Runs `argv` with `input` on its stdin; killed (SIGKILL) when it has not ended within `capMs`. */
export function runCapped(argv: readonly string[], input: string, capMs: number): Promise<CappedRun> {
  const [command, ...args] = argv;
  if (command === undefined) return Promise.reject(new Error('runCapped: empty argv'));
  const data = Buffer.from(input);
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command, args, { stdio: ['pipe', 'ignore', 'pipe'] });
    const unregister = onCleanup(`${command} (pid ${child.pid})`, () => void child.kill('SIGKILL'));
    let stderr = '';
    let flushed = 0;
    let inputReadSeconds = NaN;
    let capped = false;
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    const timer = setTimeout(() => {
      capped = true;
      child.kill('SIGKILL');
    }, capMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      void unregister();
      reject(error);
    });
    child.once('close', (code, signal) => {
      const seconds = (performance.now() - start) / 1000;
      clearTimeout(timer);
      void unregister();
      // A piece counts as flushed once it is in the pipe; up to 64 KiB of it may still be unread.
      const consumedBytes = Number.isNaN(inputReadSeconds) ? Math.max(0, flushed - 65_536) : data.length;
      resolve({ code: code ?? (signal ? 128 : 1), stderr, seconds, capped, consumedBytes, totalBytes: data.length, inputReadSeconds });
    });
    child.stdin.on('error', () => undefined);
    // In 64 KiB pieces, one at a time, so `flushed` tracks what the command has actually read.
    const piece = 64 * 1024;
    let offset = 0;
    const feed = () => {
      if (offset >= data.length) return void child.stdin.end();
      const begin = offset;
      const end = Math.min(data.length, begin + piece);
      offset = end;
      child.stdin.write(data.subarray(begin, end), (error) => {
        if (error) return;
        flushed = end;
        if (end === data.length) inputReadSeconds = (performance.now() - start) / 1000;
        feed();
      });
    };
    feed();
  });
}

/* Numbers and tables. */

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile; NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '—';
}

/** A plain text table: first column left-aligned, the others right-aligned. */
export function printTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): void {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  console.log(line(headers));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
