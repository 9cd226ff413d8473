import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { GatewayPolicy } from '@rampart/contracts';
import { openGeoIp, type GeoIp, type GeoIpOptions } from '@rampart/geoip';

/*
 * Geo-IP for the gateway's workers. Measured on this machine with the shipped data (DB-IP country
 * v4 + v6, ip2region), in a process that already holds the engine (~110 MiB RSS): from the binary
 * cache, the IPv4 tables (country + province) add ~7 MiB RSS in ~3 ms and the IPv6 table ~11 MiB
 * more in ~6 ms; a lookup takes ~1 µs (binary search), so no per-address cache. Parsing the sources
 * instead of reading the cache takes ~0.85 s and leaves the process ~57 MiB higher. Looking areas up
 * in the primary and caching per address in the workers would save the ~18 MiB per worker but cost
 * an IPC round trip per new address, and `areasOf` must answer at once: the first request of an
 * address from a blacklisted area would pass. So each worker looks up itself, but only when the
 * policy reads areas at all (`policyNeedsAreas`), and each table loads on first use (only IPv6
 * traffic loads the IPv6 table). Events of other policies get their area in the primary
 * (event-buffer.ts), one process.
 *
 * The parsed-table cache lives in the gateway's data dir, `geoip-cache/` beside gateway.json. The
 * primary (root when it binds 80/443) writes it before the workers start; the workers (service
 * user) only read it: whoever can write the cache decides what every address looks up to.
 */

/** Does this policy read the client's areas? (area lists, malicious-by-area, alert area 'unknown'). */
export function policyNeedsAreas(policy: GatewayPolicy | undefined): boolean {
  if (!policy) return false;
  const { lists, base } = policy.settings;
  const byArea = (list: { enabled: boolean; areas: readonly string[] }) => list.enabled && list.areas.length > 0;
  return byArea(lists.ip_white) || byArea(lists.ip_black) || byArea(lists.malicious) || (base.alert.enabled && base.alert.area === 'unknown');
}

/** The parsed-table cache of a gateway whose configuration is at `configPath`. */
export function geoCacheDir(configPath: string): string {
  return join(dirname(configPath), 'geoip-cache');
}

/**
 * Primary side: parses the sources into the cache once (the first start, or after the data package
 * was upgraded), so workers load in milliseconds. Blocks for ~0.85 s the first time; later starts
 * only read the cache files' headers and find them current. The tables are dropped afterwards.
 */
export function prepareGeoCache(options: GeoIpOptions & { cacheDir: string }): { ok: true; ms: number; parsed: boolean } | { ok: false; reason: string } {
  const began = performance.now();
  try {
    mkdirSync(options.cacheDir, { recursive: true, mode: 0o755 });
    const counts = openGeoIp(options).counts();
    // Readable by the workers' service user whatever the supervisor's umask (077 would hide them).
    chmodSync(options.cacheDir, 0o755);
    for (const name of readdirSync(options.cacheDir)) if (name.endsWith('.bin')) chmodSync(join(options.cacheDir, name), 0o644);
    const parsed = Object.values(counts).some((c) => c.from === 'source');
    return { ok: true, ms: Math.round(performance.now() - began), parsed };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}

type PrepareResult = ReturnType<typeof prepareGeoCache>;

/**
 * prepareGeoCache in a short-lived child process, for the primary: parsing the sources grows a heap
 * by ~50 MiB that V8 keeps once grown, and the primary lives as long as the gateway (measured with
 * bench/waf-perf's configuration: the primary went from ~124 to ~174 MiB RSS at the first event, when
 * it looked up an area without a cache). Asynchronous: in a cluster the primary hands out the
 * accepted connections, and a blocking parse (0.85 s idle, 16 s measured on a loaded machine) froze
 * every new connection meanwhile.
 */
export function prepareGeoCacheApart(options: GeoIpOptions & { cacheDir: string }): Promise<PrepareResult> {
  return new Promise((resolve) => {
    const args = ['--disable-warning=ExperimentalWarning', join(import.meta.dirname, 'geo-cache-main.ts'), JSON.stringify(options)];
    execFile(process.execPath, args, { encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
      try {
        resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as PrepareResult);
      } catch {
        resolve({ ok: false, reason: `geo-IP cache writer failed: ${(error?.message ?? stderr.trim().slice(-300)) || 'no answer'}` });
      }
    });
  });
}

/** Worker side: `areasOf(ip)` over lazily opened tables; [] when the data can't be read (logged once). */
export function createAreaLookup(options: GeoIpOptions | undefined, log: (message: string) => void = () => {}): (ip: string) => readonly string[] {
  let geo: GeoIp | undefined;
  let broken = false;
  return (ip) => {
    if (broken) return [];
    try {
      geo ??= openGeoIp(options ?? {});
      const { country, province } = geo.lookup(ip);
      if (country === null) return province === null ? [] : [province];
      return province === null ? [country] : [country, province];
    } catch (err) {
      broken = true;
      log(`geo-IP unavailable, areas unknown: ${(err as Error).message}`);
      return [];
    }
  };
}
