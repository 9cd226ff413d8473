import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openGeoIp, writeTestGeoData } from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'rampart-geoip-test-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const files = writeTestGeoData(dir, {
  v4: [
    ['10.77.2.0', '10.77.2.255', 'JP'], // out of order on purpose: the helper sorts
    ['10.77.1.0', '10.77.1.255', 'JP'],
    ['10.88.0.0', '10.88.0.9', 'US'],
    ['10.99.0.0', '10.99.255.255', 'CN'],
    ['10.100.0.0', '10.100.0.255', 'HK'],
  ],
  v6: [
    ['2001:db8:77::', '2001:db8:77:ffff:ffff:ffff:ffff:ffff', 'JP'],
    ['2001:db8:99::', '2001:db8:99:ffff:ffff:ffff:ffff:ffff', 'CN'],
  ],
  provinces: [
    ['10.99.0.0', '10.99.0.255', '广东省'],
    ['10.99.1.0', '10.99.1.255', '广东省'],
    ['10.99.3.0', '10.99.3.127', '内蒙古'],
    ['10.100.0.0', '10.100.0.255', '香港'],
    ['10.111.0.0', '10.111.0.255', '广东省'], // in the province data but not in the country data
  ],
});
const geo = openGeoIp(files);

describe('writeTestGeoData', () => {
  it('writes DB-IP style CSVs, sorted', () => {
    expect(readFileSync(files.countryV4Csv, 'utf8')).toBe(
      '10.77.1.0,10.77.1.255,JP\n10.77.2.0,10.77.2.255,JP\n10.88.0.0,10.88.0.9,US\n10.99.0.0,10.99.255.255,CN\n10.100.0.0,10.100.0.255,HK\n',
    );
    expect(readFileSync(files.countryV6Csv, 'utf8').split('\n')[0]).toBe('2001:db8:77::,2001:db8:77:ffff:ffff:ffff:ffff:ffff,JP');
  });

  it('writes a genuine ip2region v1 file: super block, header index, records, full-coverage index', () => {
    const db = readFileSync(files.regionDb);
    const first = db.readUInt32LE(0);
    const last = db.readUInt32LE(4);
    expect((last - first) % 12).toBe(0);
    expect(last + 12).toBe(db.length);
    // Header index: first entry points at the first block, with its start address.
    expect(db.readUInt32LE(8)).toBe(0);
    expect(db.readUInt32LE(12)).toBe(first);
    // Blocks cover 0.0.0.0–255.255.255.255 without gaps.
    let next = 0;
    const texts: string[] = [];
    for (let at = first; at <= last; at += 12) {
      expect(db.readUInt32LE(at)).toBe(next);
      next = db.readUInt32LE(at + 4) + 1;
      const pointer = db.readUInt32LE(at + 8);
      texts.push(db.toString('utf8', (pointer & 0xffffff) + 4, (pointer & 0xffffff) + (pointer >>> 24)));
    }
    expect(next).toBe(2 ** 32);
    expect(texts).toContain('中国|0|广东省|0|0');
    expect(texts).toContain('中国|0|香港|0|0');
  });

  it('round-trips through openGeoIp: lookups', () => {
    expect(geo.lookup('10.77.1.1')).toEqual({ country: 'JP', province: null });
    expect(geo.lookup('10.77.2.255')).toEqual({ country: 'JP', province: null });
    expect(geo.lookup('10.77.3.0')).toEqual({ country: null, province: null });
    expect(geo.lookup('10.88.0.9')).toEqual({ country: 'US', province: null });
    expect(geo.lookup('10.88.0.10')).toEqual({ country: null, province: null });
    expect(geo.lookup('10.99.0.7')).toEqual({ country: 'CN', province: 'CN-GD' });
    expect(geo.lookup('10.99.3.127')).toEqual({ country: 'CN', province: 'CN-NM' });
    expect(geo.lookup('10.99.3.128')).toEqual({ country: 'CN', province: null });
    expect(geo.lookup('10.100.0.1')).toEqual({ country: 'HK', province: 'CN-HK' });
    expect(geo.lookup('::ffff:10.99.0.7')).toEqual({ country: 'CN', province: 'CN-GD' });
    expect(geo.lookup('2001:db8:77::1')).toEqual({ country: 'JP', province: null });
    expect(geo.lookup('2001:db8:77:ffff:ffff:ffff:ffff:ffff')).toEqual({ country: 'JP', province: null });
    expect(geo.lookup('2001:db8:78::')).toEqual({ country: null, province: null });
    expect(geo.lookup('0.0.0.0')).toEqual({ country: null, province: null });
    expect(geo.lookup('255.255.255.255')).toEqual({ country: null, province: null });
    expect(geo.lookup('not an address')).toEqual({ country: null, province: null });
  });

  it('round-trips through openGeoIp: ranges per area, merged and unioned', () => {
    expect(geo.ranges(['JP'])).toEqual({ v4: ['10.77.1.0-10.77.2.255'], v6: ['2001:db8:77::/48'] });
    expect(geo.ranges(['US'])).toEqual({ v4: ['10.88.0.0-10.88.0.9'], v6: [] });
    // Two adjacent /24s of 广东省 join into a /23; the province is IPv4 only.
    expect(geo.ranges(['CN-GD'])).toEqual({ v4: ['10.99.0.0/23', '10.111.0.0/24'], v6: [] });
    expect(geo.ranges(['CN-HK'])).toEqual({ v4: ['10.100.0.0/24'], v6: [] });
    expect(geo.ranges(['HK'])).toEqual({ v4: ['10.100.0.0/24'], v6: [] });
    // CN is the country data; its provinces add nothing inside it, but 10.111.0.0/24 lies outside.
    expect(geo.ranges(['CN', 'CN-GD'])).toEqual({ v4: ['10.99.0.0/16', '10.111.0.0/24'], v6: ['2001:db8:99::/48'] });
    expect(geo.ranges(['JP', 'US', 'CN-NM'])).toEqual({
      v4: ['10.77.1.0-10.77.2.255', '10.88.0.0-10.88.0.9', '10.99.3.0/25'],
      v6: ['2001:db8:77::/48'],
    });
    expect(geo.ranges(['DE'])).toEqual({ v4: [], v6: [] });
    expect(geo.ranges([])).toEqual({ v4: [], v6: [] });
    expect(() => geo.ranges(['JP', 'ZZ'])).toThrow(/ZZ/);
  });

  it('counts what it loaded', () => {
    const counts = geo.counts();
    expect(counts.countryV4).toMatchObject({ rows: 4, labels: 4, from: 'source', cacheWritten: null, source: files.countryV4Csv });
    expect(counts.countryV6).toMatchObject({ rows: 2, labels: 2 });
    // Adjacent 广东省 segments are joined on load; 10.111.0.0/24 stays apart.
    expect(counts.provinceV4).toMatchObject({ rows: 4, labels: 3 });
    expect(geo.credit).toBe('IP geolocation by DB-IP (CC BY 4.0)');
  });

  it('refuses bad rows instead of writing a broken dataset', () => {
    expect(() => writeTestGeoData(join(dir, 'bad'), { v4: [['10.0.0.9', '10.0.0.1', 'JP']] })).toThrow(/bad IPv4 range/);
    expect(() => writeTestGeoData(join(dir, 'bad'), { v6: [['nope', '::1', 'JP']] })).toThrow(/bad IPv6 range/);
    expect(() =>
      writeTestGeoData(join(dir, 'bad'), { provinces: [['10.0.0.0', '10.0.0.255', '广东省'], ['10.0.0.128', '10.0.1.0', '广东省']] }),
    ).toThrow(/overlaps/);
  });
});
