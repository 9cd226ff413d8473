import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openGeoIp, writeTestGeoData } from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'rampart-geoip-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const files = writeTestGeoData(join(dir, 'data'), {
  v4: [['10.77.1.0', '10.77.1.255', 'JP']],
  v6: [['2001:db8:77::', '2001:db8:77::ffff', 'JP']],
  provinces: [['10.77.1.0', '10.77.1.127', '广东省']],
});
const cacheDir = join(dir, 'cache');

describe('binary cache', () => {
  it('writes on the first load, reads on the next, with the same answers', () => {
    const first = openGeoIp({ ...files, cacheDir });
    const firstCounts = first.counts();
    expect(firstCounts.countryV4).toMatchObject({ from: 'source', cacheWritten: true });
    expect(firstCounts.provinceV4).toMatchObject({ from: 'source', cacheWritten: true });
    expect(readdirSync(cacheDir).sort()).toEqual([
      expect.stringMatching(/^country-v4-[0-9a-f]+\.bin$/),
      expect.stringMatching(/^country-v6-[0-9a-f]+\.bin$/),
      expect.stringMatching(/^province-v4-[0-9a-f]+\.bin$/),
    ]);
    const second = openGeoIp({ ...files, cacheDir });
    const secondCounts = second.counts();
    for (const table of ['countryV4', 'countryV6', 'provinceV4'] as const) {
      expect(secondCounts[table].from).toBe('cache');
      expect(secondCounts[table].rows).toBe(firstCounts[table].rows);
    }
    for (const ip of ['10.77.1.5', '10.77.1.200', '10.77.2.0', '2001:db8:77::1', '2001:db8:77::1:0']) {
      expect(second.lookup(ip)).toEqual(first.lookup(ip));
    }
    expect(second.lookup('10.77.1.5')).toEqual({ country: 'JP', province: 'CN-GD' });
    expect(second.ranges(['JP', 'CN-GD'])).toEqual(first.ranges(['JP', 'CN-GD']));
  });

  it('misses when the source changes, and replaces the stale file', () => {
    openGeoIp({ ...files, cacheDir }).counts();
    const before = readdirSync(cacheDir).filter((f) => f.startsWith('country-v4-'));
    // Same size as before (JP → KR): only the mtime tells them apart.
    writeFileSync(files.countryV4Csv, '10.77.1.0,10.77.1.255,KR\n');
    utimesSync(files.countryV4Csv, new Date(), new Date(Date.now() + 10_000));
    const changed = openGeoIp({ ...files, cacheDir });
    expect(changed.lookup('10.77.1.5').country).toBe('KR');
    expect(changed.counts().countryV4.from).toBe('source');
    const after = readdirSync(cacheDir).filter((f) => f.startsWith('country-v4-'));
    expect(after).toHaveLength(1);
    expect(after).not.toEqual(before);
    writeFileSync(files.countryV4Csv, '10.77.1.0,10.77.1.255,JP\n');
    utimesSync(files.countryV4Csv, new Date(), new Date(Date.now() + 20_000));
    expect(openGeoIp({ ...files, cacheDir }).lookup('10.77.1.5').country).toBe('JP');
  });

  it('ignores a damaged cache file and parses the source instead', () => {
    openGeoIp({ ...files, cacheDir }).counts();
    const [name] = readdirSync(cacheDir).filter((f) => f.startsWith('country-v6-'));
    writeFileSync(join(cacheDir, name!), 'RAMPGEO1 garbage');
    const geo = openGeoIp({ ...files, cacheDir });
    expect(geo.lookup('2001:db8:77::1').country).toBe('JP');
    expect(geo.counts().countryV6).toMatchObject({ from: 'source', cacheWritten: true });
  });

  it('still works when the cache folder cannot be written', () => {
    const readOnly = join(dir, 'read-only');
    writeFileSync(readOnly, 'a file, not a folder');
    const geo = openGeoIp({ ...files, cacheDir: join(readOnly, 'cache') });
    expect(geo.lookup('10.77.1.5').country).toBe('JP');
    expect(geo.counts().countryV4).toMatchObject({ from: 'source', cacheWritten: false });
  });
});
