/**
 * The WAF engine in process, no network:
 * 1. requests per second for typical benign requests (a browser GET with query and cookies, a JSON
 *    API POST, a urlencoded form with rich text), every registered detector on, then SQLi + XSS only;
 * 2. a false-positive sweep of the SQLi and XSS detectors over the lines of the machine's own
 *    documentation (/usr/share/doc: changelogs, READMEs, HTML manuals — prose full of quotes,
 *    options, code and markup), counted per severity (2 = loose blocks, 1 = strict blocks too).
 * Run by hand: `node bench/waf-engine.ts` (BENCH_SECONDS per case, default 3; SWEEP_LINES, default
 * 300000). Printed, not asserted.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { decodedVariants, detectSqliValue, detectXssValue, inspect, type AttackKind, type WafRequest } from '@rampart/waf';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);

const browserHeaders: [string, string][] = [
  ['Host', 'shop.example.com'],
  ['User-Agent', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'],
  ['Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'],
  ['Accept-Language', 'en-US,en;q=0.9,zh-CN;q=0.8'],
  ['Accept-Encoding', 'gzip, deflate, br'],
  ['Referer', 'https://shop.example.com/catalog/shoes?page=2'],
  ['Cookie', 'session=6f1c2a9e0b7d4c3a8e5f1a2b3c4d5e6f; theme=dark; _ga=GA1.2.1234567890.1700000000; cart=%7B%22items%22%3A3%7D'],
  ['Connection', 'keep-alive'],
];

function request(method: string, target: string, extra: [string, string][], body: string | null): WafRequest {
  return {
    method,
    target,
    headers: [...browserHeaders, ...extra],
    clientIp: '203.0.113.7',
    body: body === null ? null : new TextEncoder().encode(body),
    bodyTruncated: false,
    now: Date.now(),
  };
}

const cases: [string, WafRequest][] = [
  ['GET page with query + cookies', request('GET', '/catalog/shoes/running?color=blue&size=42&sort=price-asc&q=trail+running+shoes&page=3', [], null)],
  [
    'POST JSON API',
    request('POST', '/api/v2/orders', [['Content-Type', 'application/json']], JSON.stringify({
      customer: { name: "Jane O'Connor", email: 'jane@example.com', address: { street: '12 Main St.', city: 'Springfield', zip: '12345' } },
      items: [{ sku: 'SKU-1234', qty: 2, note: 'Gift wrap, please -- it is for my mom; thanks!' }, { sku: 'SKU-9876', qty: 1, note: '' }],
      coupon: 'SPRING-10', comment: 'Select the faster shipping option if it is available (or the cheapest one).',
    })),
  ],
  [
    'POST form with rich text',
    request('POST', '/wp-admin/post.php', [['Content-Type', 'application/x-www-form-urlencoded']], new URLSearchParams({
      post_title: 'How to write a LEFT JOIN', action: 'editpost', post_ID: '42',
      content: '<p>In <strong>SQL</strong>, a <a href="https://example.com/docs">join</a> combines rows; select columns from both tables.</p><p><img src="/uploads/join.png" alt="diagram"></p>',
    }).toString()),
  ],
];

const kindSets: [string, AttackKind[] | undefined][] = [['all detectors', undefined], ['sqli+xss', ['sqli', 'xss']]];
for (const [name, req] of cases) {
  for (const [kindName, kinds] of kindSets) {
  for (const mode of ['loose', 'strict'] as const) {
    // Warm up, then count whole iterations in the time budget.
    for (let i = 0; i < 2000; i++) inspect(req, { mode, kinds });
    const start = process.hrtime.bigint();
    const end = start + BigInt(Math.round(seconds * 1e9));
    let n = 0;
    let decision = '';
    while (process.hrtime.bigint() < end) {
      for (let i = 0; i < 100; i++) decision = inspect(req, { mode, kinds }).action;
      n += 100;
    }
    const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
    console.log(`${name.padEnd(32)} ${kindName.padEnd(14)} ${mode.padEnd(6)} ${Math.round(n / elapsed).toLocaleString('en-US').padStart(9)} req/s  ${((elapsed / n) * 1e6).toFixed(1)} µs/req  (${decision})`);
  }
  }
}

// 2. False-positive sweep over local documentation.
function documentationLines(limit: number): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (stat?.isDirectory()) walk(path);
      else if (stat && stat.size < 400_000) files.push(path);
    }
  };
  walk('/usr/share/doc');
  const lines = new Set<string>();
  for (const file of files.sort()) {
    let text: string;
    try {
      const raw = readFileSync(file);
      text = (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
    } catch {
      continue;
    }
    if (text.includes('\0')) continue;
    for (const line of text.split('\n')) {
      const trimmed = line.trim();
      if (trimmed.length > 8) lines.add(trimmed);
      if (lines.size >= limit) return [...lines];
    }
  }
  return [...lines];
}

const lines = documentationLines(Number(process.env.SWEEP_LINES ?? 300_000));
const counts = { sqli: [0, 0, 0], xss: [0, 0, 0] };
const sweepStart = performance.now();
for (const line of lines) {
  const variants = decodedVariants(line, 'body');
  const s = variants.map(detectSqliValue).find((h) => h !== null);
  const x = variants.map(detectXssValue).find((h) => h !== null);
  counts.sqli[s ? s.severity : 0]!++;
  counts.xss[x ? x.severity : 0]!++;
}
const sweepSeconds = (performance.now() - sweepStart) / 1000;
const pct = (n: number): string => ((100 * n) / Math.max(1, lines.length)).toFixed(4) + '%';
console.log(`\n/usr/share/doc sweep: ${lines.length} distinct lines in ${sweepSeconds.toFixed(1)} s`);
for (const kind of ['sqli', 'xss'] as const) {
  console.log(`  ${kind.padEnd(5)} flagged severity 2 (loose blocks): ${counts[kind][2]} (${pct(counts[kind][2]!)}); severity 1 (strict only): ${counts[kind][1]} (${pct(counts[kind][1]!)})`);
}
