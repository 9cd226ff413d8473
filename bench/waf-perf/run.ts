/**
 * Gateway performance (issue 6, bench/waf-perf), run by hand after `bash bench/waf-perf/setup.sh`:
 *   node bench/waf-perf/run.ts            (BENCH_SECONDS, BENCH_ROUNDS, BENCH_CONNECTIONS, BENCH_WORKERS)
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

const offPort = await freePort();
const onPort = await freePort();
const upstreams = [{ url: `http://127.0.0.1:${originPort}` }];
writeFileSync(join(dir, 'gateway.json'), JSON.stringify({
  workers,
  sites: [
    { id: 'off', name: 'off', status: 'off', listen: [{ address: '127.0.0.1', port: offPort }], upstreams },
    { id: 'on', name: 'on', status: 'on', listen: [{ address: '127.0.0.1', port: onPort }], upstreams },
  ],
}));
const adminPath = join(dir, 'admin.sock');
let gatewayLog = '';
const gateway = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', join(import.meta.dirname, '../../apps/gateway/src/main.ts'),
  '--config', join(dir, 'gateway.json'), '--admin-socket', adminPath], { stdio: ['ignore', 'ignore', 'pipe'] });
gateway.stderr.on('data', (c: Buffer) => (gatewayLog += c.toString()));
await waitForPort(offPort);
await waitForPort(onPort);
await new Promise((r) => setTimeout(r, 300));

const waf = (await import('@rampart/waf')) as { inspect?: unknown };
const inspectorNote = typeof waf.inspect === 'function' ? 'the engine (@rampart/waf inspect)' : 'NO ENGINE YET (@rampart/waf has no inspect): "on" measures the inspection path with a pass-through inspector';

const targets = { direct: `http://127.0.0.1:${originPort}/index.html`, off: `http://127.0.0.1:${offPort}/index.html`, on: `http://127.0.0.1:${onPort}/index.html` };
const results: Record<keyof typeof targets, WrkResult[]> = { direct: [], off: [], on: [] };
for (let round = 0; round < rounds; round++) {
  for (const name of Object.keys(targets) as (keyof typeof targets)[]) results[name].push(await runWrk(targets[name], seconds, connections, threads));
}
const mean = (rs: WrkResult[], f: (r: WrkResult) => number) => rs.reduce((s, r) => s + f(r), 0) / rs.length;
const direct = { rps: mean(results.direct, (r) => r.rps), p99: mean(results.direct, (r) => r.p99Ms) };

const status = (await adminCommand(adminPath, 'status')) as { workers: number[] };
const rss = status.workers.map((pid) => {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number((text.split('\n').find((l) => l.startsWith(field)) ?? '').replace(/\D/g, ''));
  return { pid, rssMiB: kb('VmRSS:') / 1024, peakMiB: kb('VmHWM:') / 1024 };
});

console.log(`\ngateway performance: ${rounds} rounds × ${seconds}s, wrk ${threads} threads ${connections} connections, ${workers} gateway workers, nginx ${workers} workers, 4 KiB static page`);
console.log(`inspector for "on": ${inspectorNote}\n`);
console.table(Object.fromEntries((Object.keys(targets) as (keyof typeof targets)[]).map((name) => {
  const rps = mean(results[name], (r) => r.rps);
  const p99 = mean(results[name], (r) => r.p99Ms);
  return [name === 'direct' ? 'nginx direct' : `gateway, site ${name}`, {
    'req/s': Math.round(rps), 'ratio to direct': Number((rps / direct.rps).toFixed(3)), 'p50 ms': Number(mean(results[name], (r) => r.p50Ms).toFixed(2)),
    'p99 ms': Number(p99.toFixed(2)), 'p99 added ms': Number((p99 - direct.p99).toFixed(2)), errors: results[name].reduce((s, r) => s + r.errors, 0),
  }];
})));
console.table(rss.map((r) => ({ worker: r.pid, 'RSS MiB': Number(r.rssMiB.toFixed(1)), 'peak MiB': Number(r.peakMiB.toFixed(1)) })));
console.log('Apache + mod_security2 + CRS leg: not wired in yet (left for later).');

gateway.kill('SIGTERM');
nginx.kill('SIGQUIT');
await Promise.all([new Promise((r) => gateway.once('exit', r)), new Promise((r) => nginx.once('exit', r))]);
rmSync(dir, { recursive: true, force: true });
if (gatewayLog.includes('refused')) console.error(gatewayLog);
