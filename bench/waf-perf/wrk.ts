import { execFile } from 'node:child_process';

export interface WrkResult {
  rps: number;
  /** Completed requests (`N requests in …`). */
  requests: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

/** `1.23ms`, `850.00us`, `1.02s` → milliseconds. */
export function wrkDurationMs(text: string): number {
  const value = Number.parseFloat(text);
  if (text.endsWith('us')) return value / 1000;
  if (text.endsWith('ms')) return value;
  if (text.endsWith('s')) return value * 1000;
  return Number.NaN;
}

/** Reads wrk's `--latency` report: Requests/sec, the 50% and 99% lines, socket errors and non-2xx. */
export function parseWrk(output: string): WrkResult {
  const lines = output.split('\n').map((l) => l.trim());
  const field = (prefix: string) => lines.find((l) => l.startsWith(prefix))?.slice(prefix.length).trim() ?? '';
  const percentile = (p: string) => wrkDurationMs(lines.find((l) => l.startsWith(`${p}%`))?.split(/\s+/)[1] ?? '');
  let errors = Number(field('Non-2xx or 3xx responses:') || 0);
  const socket = field('Socket errors:');
  for (const part of socket.split(',')) errors += Number(part.trim().split(' ')[1] ?? 0) || 0;
  const requests = Number(lines.find((l) => / requests in /.test(l))?.split(' ')[0] ?? Number.NaN);
  return { rps: Number(field('Requests/sec:')), requests, p50Ms: percentile('50'), p99Ms: percentile('99'), errors };
}

/** `script`: a wrk Lua script setting the method, headers and body (see mixes.ts). */
export function runWrk(url: string, seconds: number, connections: number, threads: number, script?: string): Promise<WrkResult> {
  return new Promise((resolve, reject) => {
    execFile('wrk', [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, '--latency', ...(script ? ['-s', script] : []), url], { timeout: (seconds + 30) * 1000 }, (err, stdout) => {
      if (err) return reject(err);
      resolve(parseWrk(stdout));
    });
  });
}
