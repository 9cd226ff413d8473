/**
 * Benchmarks, run by hand: `npm run bench` (root, after `npm test` or `npm start` built the web app).
 * 1. Requests/s and p99 latency of an authenticated GET /magapi/info at 100 connections, beside the
 *    same process serving a static file; printed as a ratio measured in one run, rounds alternating.
 * 2. The JavaScript the sign-in page loads, as Chromium actually fetches it: raw, gzip and brotli
 *    sizes, the bytes Chromium received (compressed by the console) beside the same files sent
 *    uncompressed as before issue 27, and the headers of the entry script and of index.html.
 * `node bench/run.ts --sign-in` runs part 2 only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
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
  // Another build beside this one (e.g. an older one, for a before/after): RAMPART_WEB_DIR=/path/to/dist.
  ...(process.env.RAMPART_WEB_DIR ? { webDir: process.env.RAMPART_WEB_DIR } : {}),
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
const signInOnly = process.argv.includes('--sign-in');
for (let i = 0; i < (signInOnly ? 0 : rounds); i++) {
  results.info.push(await load('/magapi/info', { authorization: `Bearer ${token}` }));
  results.static.push(await load('/index.html'));
}
const mean = (rs: autocannon.Result[], f: (r: autocannon.Result) => number) => rs.reduce((s, r) => s + f(r), 0) / rs.length;
const row = (name: string, rs: autocannon.Result[]) => ({
  name, rps: mean(rs, (r) => r.requests.average), p99: mean(rs, (r) => r.latency.p99),
  errors: rs.reduce((s, r) => s + r.errors + r.non2xx, 0),
});
if (!signInOnly) {
  const info = row('GET /magapi/info (auth)', results.info);
  const stat = row('GET /index.html (static)', results.static);
  console.log(`\n${rounds} alternating rounds of ${seconds}s, 100 connections, one console process:`);
  for (const r of [info, stat]) console.log(`  ${r.name.padEnd(28)} ${r.rps.toFixed(0).padStart(7)} req/s   p99 ${r.p99.toFixed(1).padStart(6)} ms   errors ${r.errors}`);
  console.log(`  ratio info/static: ${(info.rps / stat.rps).toFixed(2)}× throughput, ${(info.p99 / stat.p99).toFixed(2)}× p99`);
}

// What the sign-in page really loads.
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const page = await browser.newPage();
interface Script { url: string; raw: number; gzip: number; brotli: number; wire: number; encoding: string }
const pending: Promise<Script>[] = [];
page.on('response', (res) => {
  if (res.request().resourceType() !== 'script') return;
  pending.push((async () => {
    const body = await res.body();
    // The body's bytes as they crossed the network (compressed when the console compressed them).
    const { responseBodySize } = await res.request().sizes();
    return {
      url: new URL(res.url()).pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length,
      brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
      wire: responseBodySize, encoding: (await res.headerValue('content-encoding')) ?? 'identity',
    };
  })());
});
await page.goto(`${base}/#/user/login`, { waitUntil: 'networkidle' });
await page.waitForSelector('[data-testid="login-form"]');
const scripts = await Promise.all(pending);
await browser.close();

/** The body bytes and headers of one GET, as sent (not decoded): what "before" looked like without Accept-Encoding. */
function rawGet(path: string, headers: Record<string, string> = {}): Promise<{ bytes: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    httpRequest(base + path, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ bytes, headers: res.headers }));
    }).on('error', reject).end();
  });
}
const identity = await Promise.all(scripts.map((s) => rawGet(s.url).then((r) => r.bytes)));

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const sum = (f: (s: Script) => number) => scripts.reduce((a, s) => a + f(s), 0);
console.log(`\nJavaScript loaded by the sign-in page (${scripts.length} files):`);
for (const s of scripts) {
  console.log(`  ${s.url.padEnd(48)} ${kib(s.raw).padStart(10)} raw ${kib(s.gzip).padStart(10)} gzip ${kib(s.brotli).padStart(10)} br ${kib(s.wire).padStart(10)} on the wire (${s.encoding})`);
}
console.log(`  total ${kib(sum((s) => s.raw))} raw, ${kib(sum((s) => s.gzip))} gzip, ${kib(sum((s) => s.brotli))} brotli (budget: 350 KiB gzip)`);
const wire = sum((s) => s.wire);
const plain = identity.reduce((a, n) => a + n, 0);
console.log(`  on the wire: ${kib(wire)} as Chromium received it, ${kib(plain)} sent uncompressed as before (no Accept-Encoding): ${(wire / plain).toFixed(3)}×`);
// Measured by this bench on commit 785c9be's build and server (RAMPART_WEB_DIR), before issue 27.
const before = { files: 33, raw: 1278.1 * 1024, gzip: 427.9 * 1024, wire: 1278.1 * 1024 };
console.log(
  `  before issue 27 (785c9be): ${before.files} files, ${kib(before.raw)} raw, ${kib(before.gzip)} gzip, ${kib(before.wire)} on the wire (uncompressed); ` +
    `now ${(sum((s) => s.gzip) / before.gzip).toFixed(2)}× the gzip size, ${(wire / before.wire).toFixed(2)}× the bytes on the wire`,
);

const entry = scripts.find((s) => /\/assets\/(main|index)-/.test(s.url)) ?? scripts[0]!;
for (const [path, accept] of [[entry.url, 'br, gzip'], [entry.url, 'gzip'], [entry.url, ''], ['/', 'br, gzip']] as const) {
  const r = await rawGet(path, accept ? { 'accept-encoding': accept } : {});
  console.log(`  GET ${path.padEnd(40)} Accept-Encoding ${(accept || '(none)').padEnd(9)} → ${String(r.headers['content-encoding'] ?? 'identity').padEnd(8)} ${kib(r.bytes).padStart(10)}  Cache-Control: ${String(r.headers['cache-control'])}`);
}

await close();
agentClient.close();
await agent.close();
await authority.close();
licenceDb.close();
rmSync(dir, { recursive: true, force: true });
