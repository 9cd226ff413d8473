import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareWords, formatIPv4, formatIPv6, parseIPv4, parseIPv6 } from './ip-address.ts';
import { buildRegionDb } from './write-region-db.ts';

/** [first address, last address (inclusive), label] */
export type TestRange = readonly [start: string, end: string, label: string];

export interface TestGeoData {
  /** IPv4 rows → ISO country code, e.g. ['10.77.1.0', '10.77.1.255', 'JP']. */
  v4?: readonly TestRange[];
  /** IPv6 rows → ISO country code. */
  v6?: readonly TestRange[];
  /** IPv4 rows → province name as ip2region writes it (广东省, 内蒙古, 香港), filed under 中国. */
  provinces?: readonly TestRange[];
}

export interface TestGeoFiles {
  countryV4Csv: string;
  countryV6Csv: string;
  regionDb: string;
}

/**
 * Writes a small dataset in the real formats: DB-IP style CSVs and a genuine ip2region v1
 * `ip2region.db` (gaps filled with unknown records). Pass the result to openGeoIp, so other
 * packages' tests can say "10.77.1.0/24 is JP" without the 60 MB of shipped data.
 */
export function writeTestGeoData(dir: string, data: TestGeoData): TestGeoFiles {
  mkdirSync(dir, { recursive: true });
  const files: TestGeoFiles = {
    countryV4Csv: join(dir, 'country-ipv4.csv'),
    countryV6Csv: join(dir, 'country-ipv6.csv'),
    regionDb: join(dir, 'ip2region.db'),
  };
  writeFileSync(files.countryV4Csv, csv(sortedV4(data.v4 ?? [])));
  writeFileSync(files.countryV6Csv, csv(sortedV6(data.v6 ?? [])));
  const segments = sortedV4(data.provinces ?? []).map(([start, end, name]) => ({
    start: parseIPv4(start)!,
    end: parseIPv4(end)!,
    text: `中国|0|${name}|0|0`,
  }));
  writeFileSync(files.regionDb, buildRegionDb(segments));
  return files;
}

function csv(rows: readonly TestRange[]): string {
  return rows.map(([start, end, label]) => `${start},${end},${label}\n`).join('');
}

/** Sorted and written in canonical form, as DB-IP ships them; bad addresses fail loudly here. */
function sortedV4(rows: readonly TestRange[]): TestRange[] {
  const parsed = rows.map(([start, end, label]) => {
    const from = parseIPv4(start);
    const to = parseIPv4(end);
    if (from === null || to === null || to < from) throw new Error(`test geo data: bad IPv4 range ${start}-${end}`);
    return { from, to, label };
  });
  parsed.sort((a, b) => a.from - b.from);
  return parsed.map(({ from, to, label }) => [formatIPv4(from), formatIPv4(to), label] as const);
}

function sortedV6(rows: readonly TestRange[]): TestRange[] {
  const parsed = rows.map(([start, end, label]) => {
    const from = parseIPv6(start);
    const to = parseIPv6(end);
    if (from === null || to === null || compareWords(to, from) < 0) throw new Error(`test geo data: bad IPv6 range ${start}-${end}`);
    return { from, to, label };
  });
  parsed.sort((a, b) => compareWords(a.from, b.from));
  return parsed.map(({ from, to, label }) => [formatIPv6(from), formatIPv6(to), label] as const);
}
