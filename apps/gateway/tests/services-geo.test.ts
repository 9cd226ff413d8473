import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultWebsiteSettings, type GatewayPolicy } from '@rampart/contracts';
import { writeTestGeoData } from '@rampart/geoip';
import { afterAll, describe, expect, it } from 'vitest';
import { createAreaLookup, geoCacheDir, policyNeedsAreas, prepareGeoCache, prepareGeoCacheApart } from '../src/geo-areas.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-geo-'));
const files = writeTestGeoData(join(dir, 'data'), {
  v4: [['10.77.1.0', '10.77.1.255', 'JP'], ['10.88.0.0', '10.88.255.255', 'CN']],
  v6: [['2001:db8:1::', '2001:db8:1:ffff:ffff:ffff:ffff:ffff', 'DE']],
  provinces: [['10.88.1.0', '10.88.1.255', '广东省']],
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const policy = (edit: (s: GatewayPolicy['settings']) => void): GatewayPolicy => {
  const settings = structuredClone(defaultWebsiteSettings);
  edit(settings);
  return { settings, super_whitelist: [], common_areas: [], cookie_secret: 'a'.repeat(64), timed: { intercepted: [], authorized: [] } };
};

describe('geo-IP areas in the gateway', () => {
  it('looks up country and province, [] for unknown addresses', () => {
    const areasOf = createAreaLookup(files);
    expect(areasOf('10.77.1.9')).toEqual(['JP']);
    expect(areasOf('10.88.1.20')).toEqual(['CN', 'CN-GD']);
    expect(areasOf('10.88.2.20')).toEqual(['CN']);
    expect(areasOf('::ffff:10.77.1.9')).toEqual(['JP']);
    expect(areasOf('2001:db8:1::7')).toEqual(['DE']);
    expect(areasOf('192.0.2.1')).toEqual([]);
    expect(areasOf('not an address')).toEqual([]);
  });

  it('says [] and logs once when the data cannot be read', () => {
    const logged: string[] = [];
    const areasOf = createAreaLookup({ countryV4Csv: join(dir, 'missing.csv'), countryV6Csv: join(dir, 'missing6.csv'), regionDb: join(dir, 'missing.db') }, (m) => logged.push(m));
    expect(areasOf('10.77.1.9')).toEqual([]);
    expect(areasOf('10.77.1.9')).toEqual([]);
    expect(logged).toHaveLength(1);
  });

  it('loads geo-IP only for a policy that reads areas', () => {
    expect(policyNeedsAreas(undefined)).toBe(false);
    expect(policyNeedsAreas(policy(() => {}))).toBe(false);
    expect(policyNeedsAreas(policy((s) => (s.lists.ip_black = { enabled: true, ips: [], areas: ['JP'] })))).toBe(true);
    // An area list that is off, or a list without areas, needs none.
    expect(policyNeedsAreas(policy((s) => (s.lists.ip_black = { enabled: false, ips: [], areas: ['JP'] })))).toBe(false);
    expect(policyNeedsAreas(policy((s) => (s.lists.ip_white = { enabled: true, ips: ['10.0.0.1'], areas: [] })))).toBe(false);
    expect(policyNeedsAreas(policy((s) => (s.lists.ip_white = { enabled: true, ips: [], areas: ['common:3'] })))).toBe(true);
    expect(policyNeedsAreas(policy((s) => (s.lists.malicious = { enabled: true, ips: ['10.0.0.1'], areas: ['CN'] })))).toBe(true);
    expect(policyNeedsAreas(policy((s) => (s.lists.malicious = { enabled: true, ips: ['10.0.0.1'], areas: [] })))).toBe(false);
    expect(policyNeedsAreas(policy((s) => (s.base.alert = { enabled: true, area: 'unknown', methods: [] })))).toBe(true);
    expect(policyNeedsAreas(policy((s) => (s.base.alert = { enabled: true, area: 'all', methods: [] })))).toBe(false);
  });

  it('has the primary write the parsed-table cache beside gateway.json, world-readable, and workers read it', () => {
    const cacheDir = geoCacheDir(join(dir, 'etc', 'gateway.json'));
    expect(cacheDir).toBe(join(dir, 'etc', 'geoip-cache'));
    // Under a umask that would hide the files from the workers' service user.
    const umask = process.umask(0o077);
    const first = (() => {
      try {
        return prepareGeoCache({ ...files, cacheDir });
      } finally {
        process.umask(umask);
      }
    })();
    expect(first).toMatchObject({ ok: true, parsed: true });
    const written = readdirSync(cacheDir);
    expect(written.filter((f) => f.endsWith('.bin'))).toHaveLength(3);
    expect(statSync(cacheDir).mode & 0o755).toBe(0o755);
    for (const f of written) expect(statSync(join(cacheDir, f)).mode & 0o044).toBe(0o044);
    expect(prepareGeoCache({ ...files, cacheDir })).toMatchObject({ ok: true, parsed: false });
    expect(createAreaLookup({ ...files, cacheDir })('10.88.1.1')).toEqual(['CN', 'CN-GD']);
  });

  it('writes the cache in a child process for the primary (the heap of the parse dies with it) without blocking it, and says why it failed', async () => {
    const cacheDir = join(dir, 'apart', 'geoip-cache');
    // The primary hands out the cluster's connections: it must go on running while the child parses.
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    const first = await prepareGeoCacheApart({ ...files, cacheDir });
    clearInterval(ticker);
    expect(first).toMatchObject({ ok: true, parsed: true });
    expect(ticks).toBeGreaterThan(0);
    expect(readdirSync(cacheDir).filter((f) => f.endsWith('.bin'))).toHaveLength(3);
    expect(await prepareGeoCacheApart({ ...files, cacheDir })).toMatchObject({ ok: true, parsed: false });
    const missing = await prepareGeoCacheApart({ countryV4Csv: join(dir, 'missing.csv'), cacheDir });
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.reason).toContain('missing.csv');
  });
});
