/**
 * Situational-awareness panels, run by hand: `node bench/dynamic.ts [--rows 1000000]`.
 * Fills an event store through its writer (so the rollups are kept as in production: full mode,
 * security events over 90 days from 100 000 addresses, areas from the shipped geo-IP data), then
 * times each dashboard panel's query: p50/p95 over up to 300 runs. Goal: every p95 <= 100 ms.
 * Last, the rollup back-fill: the same store with its rollups emptied is counted again by batches
 * (rows/s, the slowest batch, and the attack total against the live one).
 * The log page's own queries are timed by bench/events.ts; the database is removed at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { attackEventKinds, internalArea, isInternalAddress, type EventInput, type EventModule } from '@rampart/contracts';
import { openGeoIp } from '@rampart/geoip';
import { openEventStore, type RollupReader } from '@rampart/events';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} needs a positive number`);
  return value;
}
const rows = Math.floor(arg('rows', 1_000_000));
const dir = mkdtempSync(join(tmpdir(), 'rampart-dynamic-bench-'));
const log = (text: string) => console.log(`[${(performance.now() / 1000).toFixed(1)}s] ${text}`);

let seed = 7;
function rnd(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}
const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;

const geo = openGeoIp();
// Load the tables now, so neither the fill nor the ingest run pays for it.
geo.counts();
// As the agent's dashboardAreaOf: a Chinese address's province, else its country.
const areaOf = (ip: string) => {
  if (isInternalAddress(ip)) return internalArea;
  const where = geo.lookup(ip);
  return where.province ?? where.country ?? '';
};
const ips = Array.from({ length: 100_000 }, (_, i) => `${1 + (i % 222)}.${(i * 7) % 256}.${(i * 13) % 256}.${(i % 254) + 1}`);
const ipOf = () => (rnd() < 0.2 ? ips[Math.floor(rnd() * 200)]! : pick(ips));
// Attacks, detections that stopped nothing, and administrative rows the rollups skip.
const kinds: readonly string[] = [...attackEventKinds, 'website.challenge', 'website.record', 'panel.login_failed', 'remote.login', 'panel.action'];

const path = join(dir, 'events.db');
const now = Date.now();
const dayMs = 86_400_000;
{
  const store = openEventStore(path, { mode: 'full', maxBatch: 10_000, areaOf });
  const start = now - 90 * dayMs;
  const step = (90 * dayMs) / rows;
  const t0 = performance.now();
  for (let done = 0; done < rows;) {
    const n = Math.min(10_000, rows - done);
    const batch: EventInput[] = [];
    for (let i = 0; i < n; i++) {
      const kind = pick(kinds);
      batch.push({ time: Math.floor(start + (done + i) * step), kind, module: kind.split('.')[0] === 'panel' ? 'system' : (kind.split('.')[0] as EventModule), level: 'warning', source: 'bench', ip: ipOf(), params: { rule: `R${Math.floor(rnd() * 900)}` } });
    }
    store.append(batch);
    store.flush();
    done += n;
    if (done % 1_000_000 === 0 || done === rows) log(`  ${done.toLocaleString()} events (${Math.round(done / ((performance.now() - t0) / 1000)).toLocaleString()} events/s with rollups)`);
  }
  store.close();
}

/** Live ingest, side by side: attacks (rolled up) against administrative rows (not rolled up). */
function ingestRate(kind: string, module: EventModule): number {
  const live = openEventStore(join(dir, `ingest-${kind}.db`), { mode: 'full', areaOf });
  const start = performance.now();
  let count = 0;
  while (performance.now() - start < 3000) {
    live.append(Array.from({ length: 20 }, (): EventInput => ({ kind, module, level: 'warning', source: 'bench', ip: ipOf(), params: { reason: 'port_scan', rule: 'R1' } })));
    count += 20;
  }
  live.close();
  return count / ((performance.now() - start) / 1000);
}
const attacksRate = ingestRate('firewall.blocked', 'firewall');
const adminRate = ingestRate('panel.action', 'system');
log(`live ingest, full mode: attacks ${Math.round(attacksRate).toLocaleString()} events/s, admin rows ${Math.round(adminRate).toLocaleString()} events/s (ratio ${(attacksRate / adminRate).toFixed(2)})`);

const store = openEventStore(path, { mode: 'full', areaOf });
log(`store: ${store.stats().events.toLocaleString()} events, ${(store.stats().bytes / 1e6).toFixed(0)} MB`);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const panels: (keyof RollupReader)[] = ['counts', 'trend', 'report', 'areas', 'ips', 'latest', 'security', 'minutes', 'overview'];
for (const panel of panels) {
  const times: number[] = [];
  let spent = 0;
  while (times.length < 300 && spent < 5000) {
    // A different "now" in the last day each run, so no two runs read the same buckets only.
    const at = now - Math.floor(rnd() * dayMs);
    const t = performance.now();
    (store.dynamic[panel] as (now: number) => unknown)(at);
    const ms = performance.now() - t;
    times.push(ms);
    spent += ms;
  }
  times.sort((a, b) => a - b);
  console.log(`${panel.padEnd(9)} n=${String(times.length).padStart(3)}  p50 ${percentile(times, 50).toFixed(2).padStart(7)} ms  p95 ${percentile(times, 95).toFixed(2).padStart(7)} ms`);
}
const attacksLive = store.dynamic.counts(now).total;
store.close();

// Back-fill (issue 24): the same store as if written before the rollups, counted again by batches.
{
  const raw = new DatabaseSync(path);
  raw.exec(`DELETE FROM rollup_minute; DELETE FROM rollup_hour; DELETE FROM rollup_day; DELETE FROM rollup_ip_hour; DELETE FROM recent_attacks;
    UPDATE counters SET value = 0 WHERE name = 'attacks'; UPDATE meta SET value = 0 WHERE name = 'rollup_backfill_cursor';
    UPDATE meta SET value = (SELECT max(id) FROM events) WHERE name = 'rollup_backfill_until_id'; UPDATE meta SET value = 9007199254740991 WHERE name = 'rollup_backfill_before'`);
  raw.close();
  const old = openEventStore(path, { mode: 'full', areaOf, backfill: false });
  const untilId = old.backfill.progress().untilId;
  const start = performance.now();
  let slowest = 0;
  for (let done = false; !done;) {
    const t = performance.now();
    done = old.backfill.step();
    slowest = Math.max(slowest, performance.now() - t);
  }
  const seconds = (performance.now() - start) / 1000;
  const total = old.dynamic.counts(now).total;
  old.close();
  log(`back-fill: ${untilId.toLocaleString()} rows in ${seconds.toFixed(1)} s = ${Math.round(untilId / seconds).toLocaleString()} rows/s, slowest batch ${slowest.toFixed(0)} ms; attacks ${total.toLocaleString()} (live ${attacksLive.toLocaleString()})`);
}
rmSync(dir, { recursive: true, force: true });
log('done, temp files removed');
