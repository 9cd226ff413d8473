import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openGeoIp, type GeoIp } from '../src/index.ts';
import { readCountryCsv } from '../src/read-country-csv.ts';
import { readRegionDb } from '../src/read-region-db.ts';
import { readCachedTable } from '../src/table-cache.ts';
import { addressText, addressValue, rangeBounds } from './helpers/bounds.ts';

/** The shipped data: @ip-location-db/dbip-country (DB-IP Lite) and ip2region's v1 ip2region.db. */
const require = createRequire(import.meta.url);
const v4Csv = require.resolve('@ip-location-db/dbip-country/dbip-country-ipv4.csv');
const v6Csv = require.resolve('@ip-location-db/dbip-country/dbip-country-ipv6.csv');
const regionDb = require.resolve('ip2region/data/ip2region.db');

const cacheDir = mkdtempSync(join(tmpdir(), 'rampart-geoip-real-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

const raw = openGeoIp();
const log = (text: string) => console.log(`[geoip] ${text}`);

/** Deterministic pseudo-random numbers (mulberry32), so failures repeat. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface CsvRow {
  start: bigint;
  end: bigint;
  code: string;
}
function csvRows(path: string): CsvRow[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [start = '', end = '', code = ''] = line.split(',');
      return { start: addressValue(start), end: addressValue(end), code };
    });
}

describe('shipped data', () => {
  it('loads, and reports load times', () => {
    const counts = raw.counts();
    expect(counts.countryV4.rows).toBeGreaterThan(300_000);
    expect(counts.countryV6.rows).toBeGreaterThan(300_000);
    expect(counts.provinceV4.labels).toBe(34); // every province, HK, MO and TW included
    expect(counts.countryV4.labels).toBeGreaterThan(240);
    log(`parse: IPv4 CSV ${counts.countryV4.ms} ms, IPv6 CSV ${counts.countryV6.ms} ms, ip2region ${counts.provinceV4.ms} ms`);
  });

  it('knows well-known addresses', () => {
    expect(raw.lookup('8.8.8.8')).toEqual({ country: 'US', province: null });
    // 1.1.1.0/24 is APNIC's research prefix (Cloudflare's resolver); DB-IP files it under AU.
    expect(raw.lookup('1.1.1.1')).toEqual({ country: 'AU', province: null });
    expect(raw.lookup('114.114.114.114')).toEqual({ country: 'CN', province: 'CN-JS' });
    expect(raw.lookup('::ffff:114.114.114.114')).toEqual({ country: 'CN', province: 'CN-JS' });
    expect(raw.lookup('223.5.5.5')).toEqual({ country: 'CN', province: 'CN-ZJ' });
    expect(raw.lookup('10.1.2.3')).toEqual({ country: null, province: null });
    expect(raw.lookup('192.168.1.1')).toEqual({ country: null, province: null });
    // Google's resolver block sits in a row DB-IP labels CA (2001:4860:4860::/48 of a split /32).
    expect(raw.lookup('2001:4860:4860::8888')).toEqual({ country: 'CA', province: null });
    expect(raw.lookup('240e::1')).toEqual({ country: 'CN', province: null });
    expect(raw.lookup('2001:200::1')).toEqual({ country: 'JP', province: null });
    expect(raw.lookup('::1')).toEqual({ country: null, province: null });
  });

  for (const [family, path] of [[4, v4Csv], [6, v6Csv]] as const) {
    it(`IPv${family}: lookups agree with the CSV rows at their edges and in gaps`, () => {
      const rows = csvRows(path);
      const next = random(family);
      for (let n = 0; n < 3000; n++) {
        const i = Math.floor(next() * rows.length);
        const row = rows[i]!;
        const middle = row.start + ((row.end - row.start) * BigInt(Math.floor(next() * 1000))) / 1000n;
        for (const value of [row.start, middle, row.end]) {
          expect(raw.lookup(addressText(value, family)).country, addressText(value, family)).toBe(row.code);
        }
        const following = rows[i + 1];
        if (following && following.start > row.end + 1n) expect(raw.lookup(addressText(row.end + 1n, family)).country).toBeNull();
      }
    });
  }

  it("ranges('CN-GD'): every range starts and ends in Guangdong, and is as wide as it can be", () => {
    const { v4, v6 } = raw.ranges(['CN-GD']);
    expect(v4.length).toBeGreaterThan(100);
    expect(v6).toEqual([]); // ip2region v1 has IPv4 only
    let previousEnd = -2n;
    for (const text of v4) {
      expect(text).toMatch(/^\d+\.\d+\.\d+\.\d+(\/\d+|-\d+\.\d+\.\d+\.\d+)$/);
      const { start, end } = rangeBounds(text);
      expect(start > previousEnd + 1n, `${text} sorted, apart from the one before`).toBe(true);
      previousEnd = end;
      expect(raw.lookup(addressText(start, 4)).province, text).toBe('CN-GD');
      expect(raw.lookup(addressText(end, 4)).province, text).toBe('CN-GD');
      if (start > 0n) expect(raw.lookup(addressText(start - 1n, 4)).province, text).not.toBe('CN-GD');
      expect(raw.lookup(addressText(end + 1n, 4)).province, text).not.toBe('CN-GD');
    }
  });

  it("ranges('CN') is the DB-IP country data, both families; provinces and SARs add to it", () => {
    const cn = raw.ranges(['CN']);
    expect(cn.v6.length).toBeGreaterThan(100);
    for (const text of [...cn.v4.slice(0, 200), ...cn.v6.slice(0, 200)]) {
      const { start, end, family } = rangeBounds(text);
      expect(raw.lookup(addressText(start, family)).country, text).toBe('CN');
      expect(raw.lookup(addressText(end, family)).country, text).toBe('CN');
    }
    const total = (list: string[]) => list.reduce((sum, text) => sum + rangeBounds(text).end - rangeBounds(text).start + 1n, 0n);
    const withHk = raw.ranges(['CN', 'HK']);
    expect(total(withHk.v4)).toBe(total(cn.v4) + total(raw.ranges(['HK']).v4)); // disjoint countries add up
    expect(total(raw.ranges(['CN', 'CN-GD']).v4)).toBeGreaterThanOrEqual(total(cn.v4));
  });

  it('the binary cache loads fast and gives exactly what the parse gives', () => {
    const writer = openGeoIp({ cacheDir });
    expect(writer.counts().countryV6).toMatchObject({ from: 'source', cacheWritten: true });
    const cached = openGeoIp({ cacheDir });
    const counts = cached.counts();
    for (const table of ['countryV4', 'countryV6', 'provinceV4'] as const) expect(counts[table].from).toBe('cache');
    log(`cache: IPv4 ${counts.countryV4.ms} ms, IPv6 ${counts.countryV6.ms} ms, provinces ${counts.provinceV4.ms} ms`);

    const same = (kind: string, source: string, parsed: ReturnType<typeof readRegionDb>) => {
      const loaded = readCachedTable(cacheDir, { kind, source });
      expect(loaded).not.toBeNull();
      expect(loaded!.labels).toEqual(parsed.labels);
      expect(loaded!.rows).toBe(parsed.rows);
      expect(Buffer.from(loaded!.starts.buffer).equals(Buffer.from(parsed.starts.buffer))).toBe(true);
      expect(Buffer.from(loaded!.ends.buffer).equals(Buffer.from(parsed.ends.buffer))).toBe(true);
      expect(Buffer.from(loaded!.labelIndex.buffer).equals(Buffer.from(parsed.labelIndex.buffer))).toBe(true);
    };
    same('country-v4', v4Csv, readCountryCsv(v4Csv, 4));
    same('country-v6', v6Csv, readCountryCsv(v6Csv, 6));
    same('province-v4', regionDb, readRegionDb(regionDb));

    for (const codes of [['CN-GD'], ['US', 'DE'], ['CN', 'CN-HK', 'TW']]) expect(cached.ranges(codes)).toEqual(raw.ranges(codes));
    const next = random(7);
    for (let n = 0; n < 2000; n++) {
      const ip = addressText(BigInt(Math.floor(next() * 2 ** 32)), 4);
      expect(cached.lookup(ip)).toEqual(raw.lookup(ip));
    }
  });

  it('lookup rate', () => {
    const rate = (geo: GeoIp, ips: string[]) => {
      const began = performance.now();
      let found = 0;
      for (const ip of ips) if (geo.lookup(ip).country) found++;
      const seconds = (performance.now() - began) / 1000;
      expect(found).toBeGreaterThan(ips.length / 2);
      return Math.round(ips.length / seconds);
    };
    const next = random(11);
    const v4 = Array.from({ length: 500_000 }, () => addressText(BigInt(Math.floor(next() * 2 ** 32)), 4));
    const v6 = Array.from({ length: 200_000 }, () => `2${Math.floor(next() * 0x400).toString(16).padStart(3, '0')}:${Math.floor(next() * 0x10000).toString(16)}::1`);
    rate(raw, v4.slice(0, 10_000)); // warm up
    log(`lookups: IPv4 ${rate(raw, v4).toLocaleString('en-US')}/s, IPv6 ${rate(raw, v6).toLocaleString('en-US')}/s`);
  });
});
