/**
 * Gateway performance (issue 6, bench/waf-perf), run by hand after `bash bench/waf-perf/setup.sh`:
 *   node bench/waf-perf/run.ts            (BENCH_SECONDS, BENCH_ROUNDS, BENCH_CONNECTIONS, BENCH_WORKERS, BENCH_COMPARE_MAIN)
 * wrk against one nginx origin three ways in one run, rounds alternating so drift hits all alike:
 * straight to nginx, through the gateway with the site off (proxy only), and with it on (inspection).
 * Prints requests/s, the ratio to direct, p99 and the p99 the gateway adds, and each worker's memory.
 * NOT YET: the Apache + mod_security2 + CRS leg (bench/waf-quality/servers.ts starts that peer;
 * wiring it in here is left for later).
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminCommand } from '../../apps/gateway/src/admin-socket.ts';
import { runWrk, type WrkResult } from './wrk.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const workers = Number(process.env.BENCH_WORKERS ?? 0) || availableParallelism();
const threads = Math.max(1, Math.min(4, availableParallelism()));

for (const tool of ['/usr/sbin/nginx', '/usr/bin/wrk']) {
  if (!existsSync(tool)) {
    console.error(`${tool} is missing: run bash bench/waf-perf/setup.sh as root first`);
    process.exit(1);
  }
}

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = net.connect(port, '127.0.0.1', () => (c.destroy(), resolve(true)));
      c.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`port ${port} did not open`);
}

const dir = mkdtempSync(join(tmpdir(), 'rampart-wafperf-'));
chmodSync(dir, 0o755);
mkdirSync(join(dir, 'www'));
// A typical small page: 4 KiB of HTML.
writeFileSync(join(dir, 'www', 'index.html'), `<!doctype html><title>bench</title>${'<p>lorem ipsum dolor sit amet</p>'.repeat(120)}`);
const originPort = await freePort();
writeFileSync(join(dir, 'nginx.conf'), `daemon off; worker_processes ${workers}; pid ${dir}/nginx.pid; error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http { access_log off; keepalive_requests 1000000; client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  server { listen 127.0.0.1:${originPort}; root ${dir}/www; } }
`);
const nginx = spawn('/usr/sbin/nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: 'ignore' });
await waitForPort(originPort);

/**
 * The gateway under test, and optionally a second build of it to compare against in the same run
 * (BENCH_COMPARE_MAIN=/path/to/other/apps/gateway/src/main.ts, e.g. a copy of the tree before a
 * change): the machine is noisy, so before/after figures are only comparable when interleaved.
 */
const gatewayMains: [string, string][] = [['gateway', join(import.meta.dirname, '../../apps/gateway/src/main.ts')]];
if (process.env.BENCH_COMPARE_MAIN) gatewayMains.push(['compare', process.env.BENCH_COMPARE_MAIN]);
const upstreams = [{ url: `http://127.0.0.1:${originPort}` }];
let gatewayLog = '';
interface RunningGateway { label: string; process: ReturnType<typeof spawn>; adminPath: string; offPort: number; onPort: number }
const gateways: RunningGateway[] = [];
for (const [label, main] of gatewayMains) {
  const offPort = await freePort();
  const onPort = await freePort();
  writeFileSync(join(dir, `${label}.json`), JSON.stringify({
    workers,
    sites: [
      { id: 'off', name: 'off', status: 'off', listen: [{ address: '127.0.0.1', port: offPort }], upstreams },
      { id: 'on', name: 'on', status: 'on', listen: [{ address: '127.0.0.1', port: onPort }], upstreams },
    ],
  }));
  const adminPath = join(dir, `${label}.sock`);
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', main, '--config', join(dir, `${label}.json`), '--admin-socket', adminPath], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.on('data', (c: Buffer) => (gatewayLog += c.toString()));
  await waitForPort(offPort);
  await waitForPort(onPort);
  gateways.push({ label, process: child, adminPath, offPort, onPort });
}
await new Promise((r) => setTimeout(r, 300));

const waf = (await import('@rampart/waf')) as { inspect?: unknown };
const inspectorNote = typeof waf.inspect === 'function' ? 'the engine (@rampart/waf inspect)' : 'NO ENGINE YET (@rampart/waf has no inspect): "on" measures the inspection path with a pass-through inspector';

const targets: Record<string, string> = { 'nginx direct': `http://127.0.0.1:${originPort}/index.html` };
for (const g of gateways) {
  targets[`${g.label}, site off`] = `http://127.0.0.1:${g.offPort}/index.html`;
  targets[`${g.label}, site on`] = `http://127.0.0.1:${g.onPort}/index.html`;
}
const names = Object.keys(targets);
const results: Record<string, WrkResult[]> = Object.fromEntries(names.map((n) => [n, []]));
for (let round = 0; round < rounds; round++) {
  for (const name of names) results[name]!.push(await runWrk(targets[name]!, seconds, connections, threads));
}
const mean = (rs: WrkResult[], f: (r: WrkResult) => number) => rs.reduce((s, r) => s + f(r), 0) / rs.length;
const directResults = results['nginx direct']!;
const direct = { rps: mean(directResults, (r) => r.rps), p99: mean(directResults, (r) => r.p99Ms) };

const rss: { gateway: string; pid: number; rssMiB: number; peakMiB: number }[] = [];
for (const g of gateways) {
  const status = (await adminCommand(g.adminPath, 'status')) as { workers: number[] };
  for (const pid of status.workers) {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number((text.split('\n').find((l) => l.startsWith(field)) ?? '').replace(/\D/g, ''));
    rss.push({ gateway: g.label, pid, rssMiB: kb('VmRSS:') / 1024, peakMiB: kb('VmHWM:') / 1024 });
  }
}

console.log(`\ngateway performance: ${rounds} rounds × ${seconds}s, wrk ${threads} threads ${connections} connections, ${workers} gateway workers, nginx ${workers} workers, 4 KiB static page`);
console.log(`inspector for "on": ${inspectorNote}\n`);
console.table(Object.fromEntries(names.map((name) => {
  const rs = results[name]!;
  const rps = mean(rs, (r) => r.rps);
  const p99 = mean(rs, (r) => r.p99Ms);
  return [name, {
    'req/s': Math.round(rps), 'ratio to direct': Number((rps / direct.rps).toFixed(3)),
    // Each round's own ratio (to the direct run of the same round), to show the spread on a noisy machine.
    'ratio per round': rs.map((r, i) => (r.rps / directResults[i]!.rps).toFixed(3)).join(' '),
    'p50 ms': Number(mean(rs, (r) => r.p50Ms).toFixed(2)),
    'p99 ms': Number(p99.toFixed(2)), 'p99 added ms': Number((p99 - direct.p99).toFixed(2)), errors: rs.reduce((s, r) => s + r.errors, 0),
  }];
})));
console.table(rss.map((r) => ({ gateway: r.gateway, worker: r.pid, 'RSS MiB': Number(r.rssMiB.toFixed(1)), 'peak MiB': Number(r.peakMiB.toFixed(1)) })));
console.log('Apache + mod_security2 + CRS leg: not wired in yet (left for later).');

for (const g of gateways) g.process.kill('SIGTERM');
nginx.kill('SIGQUIT');
await Promise.all([...gateways.map((g) => new Promise((r) => g.process.once('exit', r))), new Promise((r) => nginx.once('exit', r))]);
rmSync(dir, { recursive: true, force: true });
if (gatewayLog.includes('refused')) console.error(gatewayLog);
