import { isAreaCode, isChinaProvinceCode, mergeRanges, rangeText, type AddressRange } from '@rampart/contracts';
import { geoIpCredit } from './credit.ts';
import { defaultSource, type SourceName } from './default-sources.ts';
import { mappedIPv4, parseIPv4, parseIPv6 } from './ip-address.ts';
import { loadTable, type TableLoad } from './load-table.ts';
import { findLabel, rangesWithLabels, rowsPerLabel } from './range-table.ts';
import { readCountryCsv } from './read-country-csv.ts';
import { readRegionDb } from './read-region-db.ts';

export interface GeoIpOptions {
  /** DB-IP country CSVs (`start,end,CC`); default: the installed @ip-location-db/dbip-country. */
  countryV4Csv?: string;
  countryV6Csv?: string;
  /** An ip2region v1 `ip2region.db`; default: the one in the installed ip2region package. */
  regionDb?: string;
  /**
   * Where parsed tables are kept between starts (e.g. under the agent's data dir); none: parse
   * each time (~0.8 s for the shipped data). Only the owning process should be able to write it:
   * whoever can write the cache decides what every address looks up to.
   */
  cacheDir?: string;
}

export interface GeoLocation {
  /** ISO 3166-1 alpha-2 per DB-IP, or null when unknown (private, reserved, unparseable). */
  country: string | null;
  /** ISO 3166-2:CN per ip2region, IPv4 only; null outside China or when ip2region has no province. */
  province: string | null;
}

/** Interval-set text (CIDR when exact, else `start-end`), merged and sorted, per family. */
export interface AreaRanges {
  v4: string[];
  v6: string[];
}

export interface GeoTableCounts {
  rows: number;
  labels: number;
  /** Memory the table's typed arrays hold. */
  bytes: number;
  from: TableLoad['from'];
  cacheWritten: boolean | null;
  ms: number;
  source: string;
}

export interface GeoIpCounts {
  countryV4: GeoTableCounts;
  countryV6: GeoTableCounts;
  provinceV4: GeoTableCounts;
}

export interface GeoIp {
  /** IPv4, IPv6 (`::ffff:a.b.c.d` counts as IPv4); text that is no address gives nulls. */
  lookup(ip: string): GeoLocation;
  /**
   * The union of the areas' ranges. A country code takes DB-IP's rows for it (so CN leaves out
   * HK, MO and TW, which DB-IP files as countries); a province code takes ip2region's IPv4
   * segments. Throws on a code that is not in the area catalogue.
   */
  ranges(codes: readonly string[]): AreaRanges;
  /** Loads every table now (they load lazily otherwise) and reports sizes and load times. */
  counts(): GeoIpCounts;
  /** The attribution DB-IP's licence requires wherever results are shown. */
  readonly credit: string;
}

/**
 * Country (DB-IP) and Chinese province (ip2region) lookups and area → address ranges.
 * Each table loads on first use: IPv4 lookups need the IPv4 and province tables, IPv6 lookups
 * the IPv6 table only.
 */
export function openGeoIp(options: GeoIpOptions = {}): GeoIp {
  const { cacheDir } = options;
  // Resolved on first use, so a caller that names every file needs no installed data package.
  const lazy = (kind: string, name: SourceName, parse: (path: string) => TableLoad['table']) => {
    let load: TableLoad | undefined;
    return () => (load ??= loadTable(kind, options[name] ?? defaultSource(name), parse, cacheDir));
  };
  const countryV4 = lazy('country-v4', 'countryV4Csv', (p) => readCountryCsv(p, 4));
  const countryV6 = lazy('country-v6', 'countryV6Csv', (p) => readCountryCsv(p, 6));
  const provinceV4 = lazy('province-v4', 'regionDb', readRegionDb);

  function lookupV4(address: number): GeoLocation {
    const key = [address];
    return { country: findLabel(countryV4().table, key), province: findLabel(provinceV4().table, key) };
  }

  return {
    credit: geoIpCredit,

    lookup(ip) {
      const v4 = parseIPv4(ip);
      if (v4 !== null) return lookupV4(v4);
      const v6 = parseIPv6(ip);
      if (v6 === null) return { country: null, province: null };
      const mapped = mappedIPv4(v6);
      if (mapped !== null) return lookupV4(mapped);
      return { country: findLabel(countryV6().table, v6), province: null };
    },

    ranges(codes) {
      const unknown = codes.filter((code) => !isAreaCode(code));
      if (unknown.length > 0) throw new Error(`geoip: unknown area code ${unknown.join(', ')}`);
      const countries = new Set(codes.filter((code) => !isChinaProvinceCode(code)));
      const provinces = new Set(codes.filter((code) => isChinaProvinceCode(code)));
      const v4: AddressRange[] = [];
      const v6: AddressRange[] = [];
      if (countries.size > 0) {
        v4.push(...rangesWithLabels(countryV4().table, countries));
        v6.push(...rangesWithLabels(countryV6().table, countries));
      }
      if (provinces.size > 0) v4.push(...rangesWithLabels(provinceV4().table, provinces));
      return {
        v4: mergeRanges(v4).map((range) => rangeText(range, 4)),
        v6: mergeRanges(v6).map((range) => rangeText(range, 6)),
      };
    },

    counts() {
      const describe = (load: TableLoad): GeoTableCounts => ({
        rows: load.table.rows,
        labels: rowsPerLabel(load.table).size,
        bytes: load.table.starts.byteLength + load.table.ends.byteLength + load.table.labelIndex.byteLength,
        from: load.from,
        cacheWritten: load.cacheWritten,
        ms: Math.round(load.ms * 10) / 10,
        source: load.source,
      });
      return {
        countryV4: describe(countryV4()),
        countryV6: describe(countryV6()),
        provinceV4: describe(provinceV4()),
      };
    },
  };
}
