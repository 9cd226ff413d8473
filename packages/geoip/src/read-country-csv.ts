import { readFileSync } from 'node:fs';
import { compareWords, parseIPv4, parseIPv6 } from './ip-address.ts';
import type { RangeTable } from './range-table.ts';
import { TableBuilder } from './table-builder.ts';

/**
 * Reads an ip-location-db country CSV (`start,end,CC` per line, inclusive, e.g. DB-IP's
 * dbip-country-ipv4.csv / -ipv6.csv) into a range table labelled with country codes.
 */
export function readCountryCsv(path: string, family: 4 | 6): RangeTable {
  return parseCountryCsv(readFileSync(path, 'latin1'), family, path);
}

export function parseCountryCsv(text: string, family: 4 | 6, source = 'csv'): RangeTable {
  // About 31 bytes a line in the IPv4 file, 58 in the IPv6 one: a close first guess at the size.
  const builder = new TableBuilder(family === 4 ? 1 : 4, Math.ceil(text.length / (family === 4 ? 30 : 56)));
  let lineNo = 0;
  for (let at = 0; at < text.length; ) {
    let next = text.indexOf('\n', at);
    if (next < 0) next = text.length;
    lineNo++;
    const line = text.slice(at, text.charCodeAt(next - 1) === 13 ? next - 1 : next);
    at = next + 1;
    if (line === '') continue;
    const c1 = line.indexOf(',');
    const c2 = line.indexOf(',', c1 + 1);
    const code = line.slice(c2 + 1).trim().toUpperCase();
    if (c1 < 0 || c2 < 0 || !/^[A-Z]{2}$/.test(code)) throw new Error(`${source}:${lineNo}: not start,end,CC`);
    const startText = line.slice(0, c1);
    const endText = line.slice(c1 + 1, c2);
    if (family === 4) {
      const start = parseIPv4(startText);
      const end = parseIPv4(endText);
      if (start === null || end === null || end < start) throw new Error(`${source}:${lineNo}: bad IPv4 range`);
      builder.add([start], [end], code);
    } else {
      const start = parseIPv6(startText);
      const end = parseIPv6(endText);
      if (start === null || end === null || compareWords(end, start) < 0) throw new Error(`${source}:${lineNo}: bad IPv6 range`);
      builder.add(start, end, code);
    }
  }
  return builder.build();
}
