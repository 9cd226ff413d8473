/**
 * Event store benchmark, run by hand: `node bench/events.ts [--rows 10000000] [--seconds 10]`.
 * 1. Sustained ingest: realistic mixed events through append/flush (full mode, default batching),
 *    printed as events/s; then a login-failure flood in simple mode (folding).
 * 2. Fills a store to N rows (direct inserts in big transactions, times spread over 90 days), then
 *    runs the log page's queries (period × filters, limit 20, first page and a deep page via
 *    `before`) and prints p50/p95 per query shape and the overall p95.
 * 3. The keyword index (issue 24): ingest with and without its triggers, the fill made without it and
 *    then back-filled in batches (rate, longest batch), sizes before and after, and keyword queries
 *    that match nothing, few and many rows, alone and with the other filters.
 * The databases live in a temp folder under /tmp, removed at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventInput, EventLevel, EventModule, EventQuery } from '@rampart/contracts';
import { openSqlite, withTransaction } from '@rampart/sqlite';
import { openEventStore, type EventStore } from '@rampart/events';
import { ftsBackfill } from '../packages/events/src/fts.ts';
import { migrations } from '../packages/events/src/migrations.ts';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} needs a positive number`);
  return value;
}
const rows = Math.floor(arg('rows', 10_000_000));
const seconds = arg('seconds', 10);
const dir = mkdtempSync(join(tmpdir(), 'rampart-events-bench-'));
const log = (text: string) => console.log(`[${(performance.now() / 1000).toFixed(1)}s] ${text}`);

/* Deterministic pseudo-random numbers (mulberry32), so runs compare. */
let seed = 42;
function rnd(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}
const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
function weighted<T>(table: readonly (readonly [T, number])[]): () => T {
  const total = table.reduce((sum, [, w]) => sum + w, 0);
  return () => {
    let r = rnd() * total;
    for (const [value, w] of table) if ((r -= w) < 0) return value;
    return table[0]![0];
  };
}

/* What an attacked server logs: mostly website and firewall detections from many IPs, a few heavy hitters. */
const kinds: Record<EventModule, string[]> = {
  system: ['panel.login_failed', 'panel.login_ok', 'panel.action', 'module.switched'],
  firewall: ['firewall.port_scan', 'firewall.syn_flood', 'firewall.blocked'],
  website: ['website.sql_injection', 'website.xss', 'website.webshell_upload', 'website.cc_attack', 'website.path_traversal'],
  remote: ['remote.brute_force', 'remote.login_ok'],
  account: ['account.created', 'account.privilege'],
  trojan: ['trojan.found', 'trojan.quarantined'],
  tamper: ['tamper.blocked_write'],
  process: ['process.blocked', 'process.suspicious'],
  cloud: ['cloud.ioc_match'],
};
const moduleOf = weighted<EventModule>([
  ['website', 40], ['firewall', 25], ['remote', 15], ['system', 5], ['account', 3], ['trojan', 3], ['tamper', 3], ['process', 4], ['cloud', 2],
]);
const levelOf = weighted<EventLevel>([['info', 70], ['warning', 25], ['critical', 5]]);
const ips = Array.from({ length: 100_000 }, (_, i) => `${45 + (i % 180)}.${(i * 7) % 256}.${(i * 13) % 256}.${i % 254 + 1}`);
/** A fifth of the events come from 200 heavy hitters. */
const ipOf = () => (rnd() < 0.2 ? ips[Math.floor(rnd() * 200)]! : pick(ips));
const accounts = ['root', 'admin', 'www', 'oracle', 'test', 'ubuntu', 'postgres', 'git', 'deploy', 'user'];
const paths = ['/wp-login.php', '/index.php', '/admin/login', '/api/v1/users', '/phpmyadmin/index.php', '/.env', '/cgi-bin/luci', '/upload/file.jsp'];
const agents = ['Mozilla/5.0 (Windows NT 10.0; Win64; x64)', 'sqlmap/1.7.2#stable', 'python-requests/2.31', 'curl/8.4.0', 'Go-http-client/1.1', 'masscan/1.3'];
function detailText(module: EventModule, ip: string): string {
  const text = module === 'website'
    ? `GET ${pick(paths)}?id=${Math.floor(rnd() * 1e6)}%27%20OR%201%3D1-- HTTP/1.1 Host: www.example.com User-Agent: ${pick(agents)} X-Forwarded-For: ${ip}`
    : module === 'remote'
      ? `sshd[${Math.floor(rnd() * 65_000)}]: Failed password for invalid user ${pick(accounts)} from ${ip} port ${Math.floor(rnd() * 65_000)} ssh2`
      : `${module}: src=${ip} dst=10.0.0.${Math.floor(rnd() * 254)} proto=${pick(['TCP', 'UDP'])} dport=${Math.floor(rnd() * 65_535)} flags=SYN rule=${Math.floor(rnd() * 900)}`;
  return (text + ' ' + 'x'.repeat(200)).slice(0, 190 + Math.floor(rnd() * 20));
}
function randomEvent(time?: number): EventInput {
  const module = moduleOf();
  const ip = ipOf();
  const account = module === 'remote' || module === 'system' ? pick(accounts) : '';
  return {
    ...(time === undefined ? {} : { time }),
    kind: pick(kinds[module]), module, level: levelOf(), source: module === 'system' ? 'panel' : `${module}d`,
    account, ip, params: { port: Math.floor(rnd() * 65_535), rule: `R${Math.floor(rnd() * 900)}` }, detail: detailText(module, ip),
  };
}

/* 1. Sustained ingest. */
function ingest(store: EventStore, events: readonly EventInput[], forMs: number, perCall: number): number {
  const start = performance.now();
  let count = 0;
  let next = start + 1000;
  while (performance.now() - start < forMs) {
    for (let i = 0; i < 50; i++) {
      const at = (count % events.length);
      const slice = events.slice(at, at + perCall);
      store.append(slice);
      count += slice.length;
    }
    if (performance.now() >= next) {
      log(`  ${count.toLocaleString()} events`);
      next += 1000;
    }
  }
  store.flush();
  return count / ((performance.now() - start) / 1000);
}

log(`ingest: ${seconds}s of mixed events, full mode, appends of 20, flush every 100 ms or 1000 events`);
const pool = Array.from({ length: 200_000 }, () => randomEvent());
for (const withIndex of [false, true]) {
  const file = join(dir, `ingest-${withIndex}.db`);
  if (!withIndex) {
    // Today's schema before the keyword index: its triggers dropped.
    const db = openSqlite(file, migrations, 'bench');
    db.exec('DROP TRIGGER events_fts_insert; DROP TRIGGER events_fts_delete; DROP TRIGGER events_fts_update');
    db.close();
  }
  const store = openEventStore(file, { mode: 'full' });
  const rate = ingest(store, pool, (seconds / 2) * 1000, 20);
  log(`ingest, full mode, ${withIndex ? 'with' : 'without'} the keyword index: ${Math.round(rate).toLocaleString()} events/s (${store.stats().events.toLocaleString()} rows)`);
  store.close();
}
{
  log(`ingest: ${seconds / 2}s of a login-failure flood from 2000 IPs, simple mode`);
  const flood = Array.from({ length: 200_000 }, (): EventInput => ({
    kind: 'panel.login_failed', module: 'system', level: 'warning', source: 'panel', account: pick(accounts), ip: ips[Math.floor(rnd() * 2000)]!,
    params: { account: pick(accounts) }, detail: `POST /magapi/login from ${pick(agents)}`,
  }));
  const store = openEventStore(join(dir, 'flood.db'), { mode: 'simple' });
  const rate = ingest(store, flood, (seconds / 2) * 1000, 20);
  log(`ingest, simple mode flood: ${Math.round(rate).toLocaleString()} events/s folded into ${store.stats().events.toLocaleString()} rows`);
  store.close();
}

/* 2. Fill to N rows, then query. */
const path = join(dir, 'events.db');
/** The schema just before the keyword index's migration. */
const beforeFts = migrations.slice(0, migrations.findIndex((step) => step.includes('CREATE VIRTUAL TABLE events_fts')));
const now = Date.now();
const dayMs = 86_400_000;
{
  log(`fill: ${rows.toLocaleString()} rows over 90 days`);
  // Filled as a store from before the keyword index, which is then added as an upgrade would.
  const db = openSqlite(path, beforeFts, 'bench');
  db.exec('PRAGMA cache_size = -262144; PRAGMA synchronous = OFF');
  const insert = db.prepare(
    'INSERT INTO events (time, kind, module, level, source, account, ip, params, detail, repeats, fold_day) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, NULL)',
  );
  const fillPool = Array.from({ length: 50_000 }, () => {
    const e = randomEvent();
    return [e.kind, e.module, e.level, e.source, e.account ?? '', e.ip ?? '', JSON.stringify(e.params), e.detail ?? ''] as const;
  });
  const start = now - 90 * dayMs;
  const step = (90 * dayMs) / rows;
  const perTx = 100_000;
  const t0 = performance.now();
  for (let done = 0; done < rows;) {
    const n = Math.min(perTx, rows - done);
    withTransaction(db, () => {
      for (let i = 0; i < n; i++) {
        const row = fillPool[Math.floor(rnd() * fillPool.length)]!;
        // Same pool row, a different IP now and then, so IPs stay varied.
        insert.run(Math.floor(start + (done + i) * step), row[0], row[1], row[2], row[3], row[4], rnd() < 0.5 ? row[5] : ipOf(), row[6], row[7]);
      }
      db.prepare("UPDATE counters SET value = value + ? WHERE name = 'events'").run(n);
    });
    done += n;
    if (done % 1_000_000 === 0 || done === rows) log(`  ${done.toLocaleString()} rows (${Math.round(done / ((performance.now() - t0) / 1000)).toLocaleString()} rows/s)`);
  }
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
}
{
  const sizes = (db: ReturnType<typeof openSqlite>) =>
    (db.prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name HAVING bytes > 1e6 ORDER BY bytes DESC").all())
      .map((r) => `${String(r['name'])} ${(Number(r['bytes']) / 1e6).toFixed(0)} MB`).join(', ');
  const mb = (db: ReturnType<typeof openSqlite>) => (Number(db.prepare('SELECT page_count * page_size AS b FROM pragma_page_count(), pragma_page_size()').get()?.['b']) / 1e6).toFixed(0);
  let db = openSqlite(path, beforeFts, 'bench');
  log(`before the keyword index: ${mb(db)} MB (${sizes(db)})`);
  db.close();
  let t = performance.now();
  db = openSqlite(path, migrations, 'bench');
  log(`migration (FTS table, triggers): ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const backfill = ftsBackfill(db);
  const total = backfill.pending();
  let longest = 0;
  t = performance.now();
  for (let left = total; left > 0;) {
    const b = performance.now();
    left = backfill.step();
    longest = Math.max(longest, performance.now() - b);
  }
  const s = (performance.now() - t) / 1000;
  log(`back-fill: ${total.toLocaleString()} rows in ${s.toFixed(1)} s (${Math.round(total / s).toLocaleString()} rows/s), longest batch ${longest.toFixed(0)} ms`);
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  log(`with the keyword index: ${mb(db)} MB (${sizes(db)})`);
  db.close();
}

const store = openEventStore(path, { mode: 'full' });
const stats = store.stats();
log(`store: ${stats.events.toLocaleString()} events, ${(stats.bytes / 1e6).toFixed(0)} MB`);
{
  const t = performance.now();
  for (let i = 0; i < 1000; i++) store.stats();
  log(`stats(): ${((performance.now() - t) / 1000).toFixed(3)} ms each`);
}

const midnight = new Date(new Date(now).setHours(0, 0, 0, 0)).getTime();
const periods = { today: midnight, '7d': midnight - 6 * dayMs, '90d': midnight - 89 * dayMs };
const heavyIps = ips.slice(0, 20);
const lightIps = ips.slice(50_000, 50_020);
type Filter = () => Omit<EventQuery, 'from' | 'limit' | 'before'>;
const filters: Record<string, Filter> = {
  'none': () => ({}),
  'module': () => ({ module: pick(['website', 'firewall', 'remote', 'process'] as const) }),
  'level': () => ({ level: pick(['info', 'warning', 'critical'] as const) }),
  'ip heavy': () => ({ ip: pick(heavyIps) }),
  'ip light': () => ({ ip: pick(lightIps) }),
  'module+level': () => ({ module: pick(['website', 'firewall', 'remote'] as const), level: pick(['warning', 'critical'] as const) }),
  'keyword common': () => ({ keyword: { text: pick(['root', 'sqlmap', 'wp-login']), kinds: [] } }),
  'keyword+kinds': () => ({ keyword: { text: pick(['brute', 'injection']), kinds: ['remote.brute_force', 'website.sql_injection'] } }),
  'module+keyword': () => ({ module: 'website', keyword: { text: pick(['phpmyadmin', '.env']), kinds: [] } }),
  'level+ip': () => ({ level: 'critical', ip: pick(heavyIps) }),
  'keyword rare': () => ({ keyword: { text: pick(['no-such-thing', 'zz-absent']), kinds: [] } }),
  'keyword none zh': () => ({ keyword: { text: pick(['暴力破解尝试', '不存在的词']), kinds: [] } }),
  'keyword few': () => ({ keyword: { text: pick(lightIps), kinds: [] } }),
  'kw+common kind': () => ({ keyword: { text: 'zz-absent', kinds: ['cloud.ioc_match'] } }),
  'module+kw few': () => ({ module: 'remote', keyword: { text: pick(lightIps), kinds: [] } }),
  'level+kw rare': () => ({ level: 'critical', keyword: { text: 'no-such-thing', kinds: [] } }),
  'module+kw clash': () => ({ module: 'website', keyword: { text: pick(['Failed password', 'invalid user']), kinds: [] } }),
  'keyword short': () => ({ keyword: { text: pick(['zq', '暴力']), kinds: [] } }),
};

/** A cursor about 2000 rows deep (page 100 of 20) for the query, or undefined if it has fewer rows. */
function deepCursor(q: EventQuery): number | undefined {
  let before: number | undefined;
  for (let i = 0; i < 2; i++) {
    const page = store.query({ ...q, limit: 1000, ...(before === undefined ? {} : { before }) });
    before = page.list.at(-1)?.id;
    if (!page.more) return undefined;
  }
  return before;
}

/** Up to 300 timed runs (or 3 s of them) over the queries `next` gives. */
function measure(next: () => EventQuery): number[] {
  const times: number[] = [];
  let spent = 0;
  while (times.length < 300 && spent < 3000) {
    const q = next();
    const t = performance.now();
    store.query(q);
    const ms = performance.now() - t;
    times.push(ms);
    spent += ms;
  }
  return times.sort((a, b) => a - b);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const all: number[] = [];
const fast: number[] = [];
const byKeyword: number[] = [];
const byIndexable: number[] = [];
log('queries: limit 20, up to 300 runs or 3 s per shape; deep = page 101 via `before`');
for (const [periodName, from] of Object.entries(periods)) {
  for (const [filterName, filter] of Object.entries(filters)) {
    for (const deep of [false, true]) {
      let times: number[];
      if (deep) {
        // Cursors found beforehand (untimed), for a few variants of the filter.
        const queries: EventQuery[] = [];
        for (let i = 0; i < 12 && !/rare|none zh|short|few|clash/.test(filterName); i++) {
          const q: EventQuery = { from, ...filter(), limit: 20 };
          const before = deepCursor(q);
          if (before !== undefined) queries.push({ ...q, before });
        }
        if (queries.length === 0) {
          console.log(`${periodName.padEnd(6)} ${filterName.padEnd(15)} deep   (fewer than 2000 rows)`);
          continue;
        }
        let i = 0;
        times = measure(() => queries[i++ % queries.length]!);
      } else {
        times = measure(() => ({ from, ...filter(), limit: 20 }));
      }
      all.push(...times);
      if (!filterName.includes('rare')) fast.push(...times);
      if (/kw|keyword/.test(filterName)) byKeyword.push(...times);
      if (/kw|keyword/.test(filterName) && !filterName.includes('short')) byIndexable.push(...times);
      console.log(`${periodName.padEnd(6)} ${filterName.padEnd(17)} ${deep ? 'deep ' : 'first'}  n=${String(times.length).padStart(3)}  p50 ${percentile(times, 50).toFixed(2).padStart(8)} ms  p95 ${percentile(times, 95).toFixed(2).padStart(8)} ms`);
    }
  }
}
all.sort((a, b) => a - b);
fast.sort((a, b) => a - b);
log(`overall: ${all.length} queries, p50 ${percentile(all, 50).toFixed(2)} ms, p95 ${percentile(all, 95).toFixed(2)} ms`);
log(`overall without the no-match keyword: p50 ${percentile(fast, 50).toFixed(2)} ms, p95 ${percentile(fast, 95).toFixed(2)} ms`);
byKeyword.sort((a, b) => a - b);
byIndexable.sort((a, b) => a - b);
log(`keyword queries: ${byKeyword.length}, p50 ${percentile(byKeyword, 50).toFixed(2)} ms, p95 ${percentile(byKeyword, 95).toFixed(2)} ms, max ${byKeyword.at(-1)?.toFixed(2)} ms`);
log(`keyword queries of 3+ characters (the index's): p95 ${percentile(byIndexable, 95).toFixed(2)} ms, max ${byIndexable.at(-1)?.toFixed(2)} ms`);

{
  log(`ingest into the filled store: ${seconds / 2}s, full mode`);
  const rate = ingest(store, pool, (seconds / 2) * 1000, 20);
  log(`ingest, full mode, ${rows.toLocaleString()}-row store: ${Math.round(rate).toLocaleString()} events/s`);
}
{
  const t = performance.now();
  const removed = store.purgeBefore(now - 89 * dayMs);
  log(`purge of the oldest day: ${removed.toLocaleString()} rows in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
store.close();
rmSync(dir, { recursive: true, force: true });
log('done, temp files removed');
