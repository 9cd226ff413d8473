import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

const packagePaths = {
  countryV4Csv: '@ip-location-db/dbip-country/dbip-country-ipv4.csv',
  countryV6Csv: '@ip-location-db/dbip-country/dbip-country-ipv6.csv',
  regionDb: 'ip2region/data/ip2region.db',
} as const;

export type SourceName = keyof typeof packagePaths;

/** A data file of the installed packages, found the way Node finds the packages themselves. */
export function defaultSource(name: SourceName): string {
  return require.resolve(packagePaths[name]);
}
