import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { internalArea } from '@rampart/contracts';
import { openGeoIp, writeTestGeoData } from '@rampart/geoip';
import { dashboardAreaOf } from '../src/dynamic/dynamic-handlers.ts';

const dir = mkdtempSync(join(tmpdir(), 'rampart-dynamic-area-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('dashboard areas', () => {
  it('gives a Chinese address its province (for the China map), others their country, private ranges internal', () => {
    // Real geo-IP files in the shipped formats, small enough to write here.
    const geo = openGeoIp({
      ...writeTestGeoData(dir, {
        v4: [['198.51.100.0', '198.51.100.255', 'CN'], ['203.0.113.0', '203.0.113.255', 'US'], ['192.0.2.0', '192.0.2.255', 'CN']],
        provinces: [['198.51.100.0', '198.51.100.127', '广东省']],
      }),
      cacheDir: join(dir, 'cache'),
    });
    const areaOf = dashboardAreaOf(geo);
    expect(areaOf('198.51.100.9')).toBe('CN-GD');
    expect(areaOf('192.0.2.1')).toBe('CN'); // ip2region has no province for it
    expect(areaOf('203.0.113.7')).toBe('US');
    expect(areaOf('10.1.2.3')).toBe(internalArea);
  });
});
