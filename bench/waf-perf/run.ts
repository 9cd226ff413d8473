/**
 * Gateway performance (issue 6, bench/waf-perf), run by hand as root after `bash bench/waf-perf/setup.sh`:
 *   node bench/waf-perf/run.ts
 * Environment: BENCH_SECONDS (10), BENCH_ROUNDS (1), BENCH_CONNECTIONS (64), BENCH_WORKERS (one per
 * core), BENCH_APACHE_THREADS (64 per child), BENCH_APACHE=0 (leave the peer out), BENCH_OUT (a JSON
 * file of every figure), BENCH_COMPARE_MAIN (a second gateway build, e.g. a copy of the tree before
 * a change, measured beside this one).
 *
 * wrk against one nginx origin, in one run, for each request mix (mixes.ts: page GET, GET with query
 * parameters, form POST, JSON POST): straight to nginx; through the Rampart gateway with the site off
 * (proxy only) and with the engine on (loose and strict); through Apache + mod_security2 + OWASP CRS (Debian's
 * packages, paranoia level 1, blocking). Legs alternate within a round so drift on a shared machine
 * hits all alike. Prints per mix requests/s and the ratio to nginx alone, p50/p99 and the p99 added
 * over nginx, and the memory of each worker (gateway worker, nginx worker, Apache child) sampled
 * from /proc during that leg; then the gateway with the engine on against Apache + ModSecurity.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startApacheModsecurity, startOriginNginx, waitForPort, type Running } from '../waf-quality/servers.ts';
import { requestMixes, writeWrkScripts } from './mixes.ts';
import { watchServer } from './procfs.ts';
import { summarize, formatTable, type LegRun } from './report.ts';
import { runWrk } from './wrk.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const workers = Number(process.env.BENCH_WORKERS ?? 0) || availableParallelism();
const threads = Math.max(1, Math.min(4, availableParallelism()));
const withApache = process.env.BENCH_APACHE !== '0';
/**
 * Apache's event MPM: one child per gateway worker (per core), so both sides have the same number of
 * processes. A child serves one request per thread; 64 threads let a single child hold every wrk
 * connection at once, so Apache never waits for a free thread because the accept mutex handed one
 * child more connections than the other.
 */
const apacheWorkers = { processes: workers, threadsPerChild: Number(process.env.BENCH_APACHE_THREADS ?? 64) };

const needed = ['/usr/sbin/nginx', '/usr/bin/wrk', ...(withApache ? ['/usr/sbin/apache2', '/usr/lib/apache2/modules/mod_security2.so', '/usr/share/modsecurity-crs/rules'] : [])];
for (const tool of needed) {
  if (!existsSync(tool)) {
    console.error(`${tool} is missing: run bash bench/waf-perf/setup.sh as root first (or BENCH_APACHE=0 to leave the peer out)`);
    process.exit(1);
  }
}

const startedAt = new Date();
const dir = mkdtempSync(join(tmpdir(), 'rampart-wafperf-'));
const scripts = writeWrkScripts(dir);
// A typical small page: 4 KiB of HTML, the answer to every request (the origin reads and drops bodies).
const page = `<!doctype html><title>bench</title>${'<p>lorem ipsum dolor sit amet</p>'.repeat(120)}`;
const origin = await startOriginNginx(undefined, { workers, body: page });

/**
 * The gateway under test, and optionally a second build of it to compare against in the same run
 * (BENCH_COMPARE_MAIN=/path/to/other/apps/gateway/src/main.ts): the machine is noisy, so before/after
 * figures are only comparable when interleaved. One process per build with two sites on the same
 * workers: status off (proxy only) and on (engine, loose), and a third, on in strict mode.
 */
const gatewayMains: [string, string][] = [['gateway', join(import.meta.dirname, '../../apps/gateway/src/main.ts')]];
if (process.env.BENCH_COMPARE_MAIN) gatewayMains.push(['compare', process.env.BENCH_COMPARE_MAIN]);
const upstreams = [{ url: `http://127.0.0.1:${origin.port}` }];
interface RunningGateway { label: string; process: ChildProcess; offPort: number; onPort: number; strictPort: number; log: () => string }
const gateways: RunningGateway[] = [];
for (const [label, main] of gatewayMains) {
  const offPort = await freePort();
  const onPort = await freePort();
  const strictPort = await freePort();
  writeFileSync(join(dir, `${label}.json`), JSON.stringify({
    workers,
    sites: [
      { id: 'off', name: 'off', status: 'off', listen: [{ address: '127.0.0.1', port: offPort }], upstreams },
      { id: 'on', name: 'on', status: 'on', block_mode: 'loose', listen: [{ address: '127.0.0.1', port: onPort }], upstreams },
      // Strict is a new site's default block mode: what most sites run.
      { id: 'strict', name: 'strict', status: 'on', block_mode: 'strict', listen: [{ address: '127.0.0.1', port: strictPort }], upstreams },
    ],
  }));
  const logFile = join(dir, `${label}.log`);
  // As the product starts the primary (apps/cli start.ts): measured RSS 107 vs 115 MiB idle, peak 117-121 vs 123-134 under load, same req/s.
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '--max-semi-space-size=1', main, '--config', join(dir, `${label}.json`)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (c: Buffer) => { log += c.toString(); appendFileSync(logFile, c); });
  await waitForPort(offPort, child, `gateway ${label}`, logFile);
  await waitForPort(onPort, child, `gateway ${label}`, logFile);
  await waitForPort(strictPort, child, `gateway ${label}`, logFile);
  gateways.push({ label, process: child, offPort, onPort, strictPort, log: () => log });
}
const apache: Running | null = withApache ? await startApacheModsecurity(origin.port, undefined, apacheWorkers) : null;
await new Promise((r) => setTimeout(r, 500));

interface Leg { name: string; port: number; mainPid: number }
const legs: Leg[] = [{ name: 'nginx alone', port: origin.port, mainPid: origin.pid }];
for (const g of gateways) {
  legs.push({ name: `${g.label}, site off`, port: g.offPort, mainPid: g.process.pid! });
  legs.push({ name: `${g.label}, engine on (loose)`, port: g.onPort, mainPid: g.process.pid! });
  legs.push({ name: `${g.label}, engine on (strict)`, port: g.strictPort, mainPid: g.process.pid! });
}
if (apache) legs.push({ name: 'Apache + ModSecurity CRS PL1', port: apache.port, mainPid: apache.pid });

/**
 * Before measuring: an attack must be refused where a WAF inspects and passed where none does (else
 * "engine on" would measure a pass-through), and each mix must pass everywhere (else a leg would
 * measure the refusal). The warm-up wrk runs also let the gateway's JIT settle.
 */
const attack = '/search?q=1%27%20OR%20%271%27%3D%271%27--%20&cat=%3Cscript%3Ealert(1)%3C%2Fscript%3E';
for (const leg of legs) {
  const status = (await fetch(`http://127.0.0.1:${leg.port}${attack}`)).status;
  const inspects = leg.name.includes('engine on') || leg.name.startsWith('Apache');
  const ok = inspects ? status === 403 : status === 200;
  const pageBytes = (await (await fetch(`http://127.0.0.1:${leg.port}/index.html`)).arrayBuffer()).byteLength;
  console.log(`check: ${leg.name} answers an SQL injection + XSS query with ${status}${ok ? '' : inspects ? ' — NOT BLOCKED, the figures below do not measure inspection' : ' — unexpected'}; the page with ${pageBytes} bytes${pageBytes === page.length ? '' : ` — NOT the origin's ${page.length}`}`);
}
const warmSeconds = Math.min(3, seconds);
for (const mix of requestMixes) {
  for (const leg of legs) {
    const warm = await runWrk(`http://127.0.0.1:${leg.port}${mix.target}`, warmSeconds, connections, threads, scripts.get(mix.name));
    if (warm.errors > 0) {
      const res = await fetch(`http://127.0.0.1:${leg.port}${mix.target}`, { method: mix.method, headers: mix.headers, ...(mix.body !== undefined ? { body: mix.body } : {}) });
      console.log(`check: ${mix.name} → ${leg.name}: ${warm.errors} errors or non-2xx answers in the warm-up (a single request: ${res.status}) — this leg's figures measure refusals`);
    }
  }
}

const runs: LegRun[] = [];
for (let round = 0; round < rounds; round++) {
  for (const mix of requestMixes) {
    for (const leg of legs) {
      const stopWatching = watchServer(leg.mainPid);
      const result = await runWrk(`http://127.0.0.1:${leg.port}${mix.target}`, seconds, connections, threads, scripts.get(mix.name));
      runs.push({ mix: mix.name, leg: leg.name, round, result, usage: stopWatching() });
    }
  }
}
const finishedAt = new Date();

const head = (() => {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: import.meta.dirname, encoding: 'utf8' }).trim();
    const changed = execFileSync('git', ['status', '--porcelain', '--', 'apps/gateway', 'packages/waf'], { cwd: join(import.meta.dirname, '../..'), encoding: 'utf8' }).split('\n').filter(Boolean).length;
    return `${commit}${changed ? ` + ${changed} uncommitted files in apps/gateway, packages/waf (measured as on disk)` : ''}`;
  } catch {
    return 'unknown';
  }
})();
/** The first line a tool prints about its version (nginx -v writes it to stderr). */
const version = (cmd: string, args: string[]) => {
  const out = spawnSync(cmd, args, { encoding: 'utf8' });
  return `${out.stdout ?? ''}${out.stderr ?? ''}`.split('\n')[0]!.trim();
};
console.log(`\nwaf-perf ${startedAt.toISOString()} → ${finishedAt.toISOString()} (UTC), tree ${head}`);
console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores (other work on the machine shows here)`);
console.log(`${rounds} round(s) × ${seconds}s per leg after a ${warmSeconds}s warm-up; wrk ${threads} threads, ${connections} connections, keep-alive; node ${process.version}; ${version('nginx', ['-v']).replace('nginx version: ', '')}`);
console.log(`nginx origin: ${workers} workers, answers every request with a 4 KiB page. Gateway: ${workers} workers.`);
if (apache) console.log(`Apache: ${version('/usr/sbin/apache2', ['-v']).replace('Server version: ', '')}, event MPM, ${apacheWorkers.processes} children × ${apacheWorkers.threadsPerChild} threads, mod_security2 ${version('dpkg-query', ['-W', '-f=${Version}', 'libapache2-mod-security2'])} SecRuleEngine On, CRS ${version('dpkg-query', ['-W', '-f=${Version}', 'modsecurity-crs'])} PL1 (anomaly threshold 5 → 403), proxying with keep-alive to the same origin`);
console.log('memory: per worker process (gateway worker, nginx worker, Apache child), sampled every second during the leg; PSS shares pages among the processes that share them (Apache children share what the parent loaded).');
console.log("CPU µs/req: user + system time of the server's own processes (main + workers) over the requests wrk completed; the proxies' rows leave out the origin's share.");

const summary = summarize(runs, 'nginx alone', 'gateway, engine on (loose)', 'Apache + ModSecurity CRS PL1');
for (const mix of summary.mixes) {
  console.log(`\n${mix.mix}`);
  console.log(formatTable(mix.rows, rounds > 1));
  if (mix.engineVsApache !== null) console.log(`gateway engine on vs Apache+ModSecurity: ${mix.engineVsApache.toFixed(2)}× the requests per second, ${mix.engineVsApacheCpu!.toFixed(2)}× less CPU per request`);
}
if (summary.engineVsApache !== null) {
  console.log(`\ngateway engine on vs Apache+ModSecurity: ${summary.engineVsApache.toFixed(2)}× (geometric mean of the ${summary.mixes.length} mixes' requests/s ratios; CPU per request ${summary.engineVsApacheCpu!.toFixed(2)}× less)`);
}
const strictSummary = summarize(runs, 'nginx alone', 'gateway, engine on (strict)', 'Apache + ModSecurity CRS PL1');
if (strictSummary.engineVsApache !== null) {
  console.log(`gateway engine on (strict) vs Apache+ModSecurity: ${strictSummary.engineVsApache.toFixed(2)}× (geometric mean; CPU per request ${strictSummary.engineVsApacheCpu!.toFixed(2)}× less)`);
}
if (process.env.BENCH_OUT) writeFileSync(process.env.BENCH_OUT, JSON.stringify({ startedAt, finishedAt, head, seconds, rounds, connections, workers, apacheWorkers, runs, summary }, null, 2));

for (const g of gateways) g.process.kill('SIGTERM');
await Promise.all(gateways.map((g) => new Promise((r) => (g.process.exitCode !== null ? r(null) : g.process.once('exit', r)))));
await apache?.stop();
await origin.stop();
rmSync(dir, { recursive: true, force: true });
for (const g of gateways) if (/refused|error/i.test(g.log())) console.error(`gateway ${g.label} log:\n${g.log().slice(-4000)}`);
