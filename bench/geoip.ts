/**
 * GeoIP benchmark, run by hand: `node bench/geoip.ts [--lookups 2000000]`.
 * Load time of the shipped data parsed from source and from the binary cache, the memory the
 * tables hold, lookups per second (IPv4 and IPv6, random addresses), and the time ranges() takes
 * for a few area sets. The cache lives in a temp folder under /tmp, removed at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openGeoIp, type GeoIp } from '@rampart/geoip';

const i = process.argv.indexOf('--lookups');
const lookups = i >= 0 ? Number(process.argv[i + 1]) : 2_000_000;
if (!Number.isInteger(lookups) || lookups <= 0) throw new Error('--lookups needs a positive whole number');
const cacheDir = mkdtempSync(join(tmpdir(), 'rampart-geoip-bench-'));

function timed<T>(run: () => T): [T, number] {
  const began = performance.now();
  const result = run();
  return [result, performance.now() - began];
}

function loadReport(label: string, geo: GeoIp): void {
  const [counts, ms] = timed(() => geo.counts());
  const parts = Object.entries(counts).map(([name, c]) => `${name} ${c.rows.toLocaleString('en-US')} rows ${c.ms} ms (${c.from})`);
  console.log(`${label}: ${ms.toFixed(0)} ms — ${parts.join(', ')}`);
}

/* Deterministic pseudo-random numbers (mulberry32), so runs compare. */
let seed = 42;
function rnd(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}
const randomV4 = () => `${(rnd() * 224) | 0}.${(rnd() * 256) | 0}.${(rnd() * 256) | 0}.${(rnd() * 256) | 0}`;
const hex = (max: number) => ((rnd() * max) | 0).toString(16);
const randomV6 = () => `2${hex(0x400).padStart(3, '0')}:${hex(0x10000)}:${hex(0x10000)}::${hex(0x10000)}`;

function lookupRate(geo: GeoIp, ips: string[]): string {
  let found = 0;
  const [, ms] = timed(() => {
    for (const ip of ips) if (geo.lookup(ip).country) found++;
  });
  return `${Math.round(ips.length / (ms / 1000)).toLocaleString('en-US')}/s (${((100 * found) / ips.length).toFixed(0)}% found)`;
}

try {
  loadReport('parse from source, cache written', openGeoIp({ cacheDir }));
  const geo = openGeoIp({ cacheDir });
  loadReport('load from cache', geo);
  const bytes = Object.values(geo.counts()).reduce((sum, c) => sum + c.bytes, 0);
  console.log(`memory: ${(bytes / 1024 / 1024).toFixed(1)} MB of typed arrays per instance`);

  const v4 = Array.from({ length: lookups }, randomV4);
  const v6 = Array.from({ length: Math.ceil(lookups / 2) }, randomV6);
  lookupRate(geo, v4.slice(0, 50_000)); // warm up
  console.log(`lookup IPv4: ${lookupRate(geo, v4)}`);
  console.log(`lookup IPv6: ${lookupRate(geo, v6)}`);

  for (const codes of [['CN-GD'], ['CN'], ['CN', 'HK', 'MO', 'TW'], ['US']]) {
    const [ranges, ms] = timed(() => geo.ranges(codes));
    console.log(`ranges(${codes.join(',')}): ${ranges.v4.length} IPv4 + ${ranges.v6.length} IPv6 entries in ${ms.toFixed(0)} ms`);
  }
} finally {
  rmSync(cacheDir, { recursive: true, force: true });
}
