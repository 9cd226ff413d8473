/**
 * Benchmarks, run by hand: `npm run bench` (root, after `npm test` or `npm start` built the web app).
 * 1. Requests/s and p99 latency of an authenticated GET /magapi/info at 100 connections, beside the
 *    same process serving a static file; printed as a ratio measured in one run, rounds alternating.
 * 2. The gzip size of the JavaScript the sign-in page loads, as Chromium actually fetches it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { chromium } from 'playwright-core';
import { AgentClient } from '@rampart/agent-client';
import { startAgent } from '@rampart/agent';
import { buildAuthority, issueLicence, openLicenceDb } from '@rampart/licence';
import { buildConsole } from '@rampart/console';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'rampart-bench-'));

const agent = await startAgent({
  socketPath: join(dir, 'agent.sock'), stateDir: join(dir, 'agent'), log: () => {},
  executors: { restartSoftware: async () => {}, rebootServer: async () => {} },
  firewall: { nft: null, background: false, sensors: { journal: false } },
});
const agentClient = new AgentClient(join(dir, 'agent.sock'));
const licenceDb = openLicenceDb(join(dir, 'licence.db'));
const authority = buildAuthority({ db: licenceDb });
await authority.listen({ host: '127.0.0.1', port: 0 });
const { app, close } = await buildConsole({
  db: join(dir, 'panel.db'), agent: agentClient, background: false,
  licenceUrl: `http://127.0.0.1:${(authority.server.address() as { port: number }).port}`,
  deviceId: () => '0'.repeat(32),
});
await app.listen({ host: '127.0.0.1', port: 0 });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

const post = (path: string, body: unknown): Promise<{ data: { password: string; token: string } }> =>
  fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<{ data: { password: string; token: string } }>);
const reg = await post('/magapi/register', { key: issueLicence(licenceDb, { days: 30, transfers: 0 }).code, agree: true });
const login = await post('/magapi/login', { username: 'admin', password: reg.data.password });
const token: string = login.data.token;

function load(path: string, headers: Record<string, string> = {}) {
  return autocannon({ url: base + path, connections: 100, duration: seconds, headers });
}

const results = { info: [] as autocannon.Result[], static: [] as autocannon.Result[] };
for (let i = 0; i < rounds; i++) {
  results.info.push(await load('/magapi/info', { authorization: `Bearer ${token}` }));
  results.static.push(await load('/index.html'));
}
const mean = (rs: autocannon.Result[], f: (r: autocannon.Result) => number) => rs.reduce((s, r) => s + f(r), 0) / rs.length;
const row = (name: string, rs: autocannon.Result[]) => ({
  name, rps: mean(rs, (r) => r.requests.average), p99: mean(rs, (r) => r.latency.p99),
  errors: rs.reduce((s, r) => s + r.errors + r.non2xx, 0),
});
const info = row('GET /magapi/info (auth)', results.info);
const stat = row('GET /index.html (static)', results.static);
console.log(`\n${rounds} alternating rounds of ${seconds}s, 100 connections, one console process:`);
for (const r of [info, stat]) console.log(`  ${r.name.padEnd(28)} ${r.rps.toFixed(0).padStart(7)} req/s   p99 ${r.p99.toFixed(1).padStart(6)} ms   errors ${r.errors}`);
console.log(`  ratio info/static: ${(info.rps / stat.rps).toFixed(2)}× throughput, ${(info.p99 / stat.p99).toFixed(2)}× p99`);

// What the sign-in page really loads.
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const page = await browser.newPage();
const scripts: { url: string; raw: number; gzip: number }[] = [];
page.on('response', async (res) => {
  if (res.request().resourceType() !== 'script') return;
  const body = await res.body();
  scripts.push({ url: new URL(res.url()).pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
});
await page.goto(`${base}/#/user/login`, { waitUntil: 'networkidle' });
await browser.close();
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`\nJavaScript loaded by the sign-in page (${scripts.length} files):`);
for (const s of scripts) console.log(`  ${s.url.padEnd(48)} ${kib(s.raw).padStart(10)} raw  ${kib(s.gzip).padStart(10)} gzip`);
console.log(`  total ${kib(scripts.reduce((a, s) => a + s.raw, 0))} raw, ${kib(scripts.reduce((a, s) => a + s.gzip, 0))} gzip`);

await close();
agentClient.close();
await agent.close();
await authority.close();
licenceDb.close();
rmSync(dir, { recursive: true, force: true });
