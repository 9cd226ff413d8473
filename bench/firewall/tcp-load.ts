/**
 * Runs inside a lab namespace (`ip netns exec NS node bench/firewall/tcp-load.ts MODE ...`), started by
 * the firewall benchmarks. Three modes:
 *
 *   serve PORT
 *     Accepts TCP connections and lets them close (the client closes them). Prints `{"listening":PORT}`.
 *   connect HOST PORT SECONDS CONCURRENCY TIMEOUT_MS
 *     Connect-and-close loop with CONCURRENCY connections in flight for SECONDS (each closed with a
 *     RST as soon as it is established); prints one JSON line: connections made, failures, and
 *     connect latency percentiles (ms).
 *   probe HOST PORT INTERVAL_MS TIMEOUT_MS
 *     Starts one connection attempt every INTERVAL_MS (without waiting for the previous) and prints a
 *     JSON line per attempt: `{"sentAt": epoch ms, "state": "open"|"timeout"|"refused"|"error", "ms"}`.
 *     Runs until its stdin closes.
 */
import net from 'node:net';
import { createInterface } from 'node:readline';

const [mode, ...args] = process.argv.slice(2);
const num = (i: number) => {
  const value = Number(args[i]);
  if (!Number.isFinite(value)) throw new Error(`tcp-load ${mode}: argument ${i + 1} must be a number`);
  return value;
};
/** Wall-clock ms with sub-ms precision: comparable across processes and with the kernel's `meta time`. */
const wallNow = () => performance.timeOrigin + performance.now();

function serve(port: number): void {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    // The client resets it; errors (ECONNRESET) are expected and ignored.
    socket.resume();
  });
  server.listen({ port, host: '::', ipv6Only: false, backlog: 4096 }, () => console.log(JSON.stringify({ listening: port })));
  createInterface({ input: process.stdin }).on('close', () => process.exit(0));
}

function connectLoop(host: string, port: number, seconds: number, concurrency: number, timeoutMs: number): void {
  let latencies = new Float64Array(1 << 16);
  let made = 0;
  let failed = 0;
  let timedOut = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  let running = 0;

  const once = () => {
    const began = performance.now();
    if (began >= end) {
      running -= 1;
      if (running === 0) finish();
      return;
    }
    const socket = net.connect({ host, port });
    let settled = false;
    const settle = (ok: boolean, timeout = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const now = performance.now();
      // Closed with a RST (SO_LINGER 0): no TIME_WAIT, so hundreds of thousands of connections from one
      // address never run short of local ports, and every round starts alike.
      if (ok) socket.resetAndDestroy();
      else socket.destroy();
      // Only what finished inside the window counts: the rate is per measured second.
      if (now <= end) {
        if (ok) {
          if (made === latencies.length) {
            const bigger = new Float64Array(latencies.length * 2);
            bigger.set(latencies);
            latencies = bigger;
          }
          latencies[made++] = now - began;
        } else if (timeout) timedOut += 1;
        else failed += 1;
      }
      setImmediate(once);
    };
    const timer = setTimeout(() => settle(false, true), timeoutMs);
    socket.once('connect', () => settle(true));
    socket.once('error', () => settle(false));
  };

  const finish = () => {
    const measured = (end - start) / 1000;
    const sorted = latencies.subarray(0, made).sort();
    const pct = (p: number) => (made === 0 ? null : sorted[Math.min(made - 1, Math.ceil((p / 100) * made) - 1)]!);
    console.log(JSON.stringify({ connections: made, failed, timedOut, seconds: measured, perSecond: made / measured, p50: pct(50), p99: pct(99), max: pct(100) }));
    process.exit(0);
  };

  running = concurrency;
  for (let i = 0; i < concurrency; i++) once();
}

function probeLoop(host: string, port: number, intervalMs: number, timeoutMs: number): void {
  const attempt = () => {
    const sentAt = wallNow();
    const began = performance.now();
    const socket = net.connect({ host, port });
    let settled = false;
    const settle = (state: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      process.stdout.write(`${JSON.stringify({ sentAt, state, ms: performance.now() - began })}\n`);
    };
    const timer = setTimeout(() => settle('timeout'), timeoutMs);
    socket.once('connect', () => settle('open'));
    socket.once('error', (error: NodeJS.ErrnoException) => settle(error.code === 'ECONNREFUSED' ? 'refused' : 'error'));
  };
  const ticker = setInterval(attempt, intervalMs);
  attempt();
  createInterface({ input: process.stdin }).on('close', () => {
    clearInterval(ticker);
    process.exit(0);
  });
}

if (mode === 'serve') serve(num(0));
else if (mode === 'connect') connectLoop(args[0] ?? '', num(1), num(2), num(3), num(4));
else if (mode === 'probe') probeLoop(args[0] ?? '', num(1), num(2), num(3));
else {
  console.error('usage: tcp-load.ts serve PORT | connect HOST PORT SECONDS CONCURRENCY TIMEOUT_MS | probe HOST PORT INTERVAL_MS TIMEOUT_MS');
  process.exit(2);
}
