import { readFileSync } from 'node:fs';
import { CITY_ID_BYTES, INDEX_BLOCK_BYTES, SUPER_BLOCK_BYTES, parseRegionText } from './region-db-format.ts';
import { provinceOfRegion } from './region-provinces.ts';
import type { RangeTable } from './range-table.ts';
import { TableBuilder } from './table-builder.ts';

/**
 * Reads the IPv4 ranges of China's provinces out of an ip2region v1 `ip2region.db` into a range
 * table labelled with ISO 3166-2:CN codes. Segments elsewhere, or in China without a province,
 * are left out.
 */
export function readRegionDb(path: string): RangeTable {
  return parseRegionDb(readFileSync(path), path);
}

export function parseRegionDb(db: Buffer, source = 'ip2region.db'): RangeTable {
  if (db.length < SUPER_BLOCK_BYTES) throw new Error(`${source}: too short for an ip2region.db`);
  const first = db.readUInt32LE(0);
  const last = db.readUInt32LE(4);
  if (first > last || last + INDEX_BLOCK_BYTES > db.length || (last - first) % INDEX_BLOCK_BYTES !== 0) {
    throw new Error(`${source}: bad super block (${first}, ${last})`);
  }
  const builder = new TableBuilder(1, 8192);
  // Many segments share one record: decode each record once.
  const provinceByPointer = new Map<number, string | null>();
  for (let at = first; at <= last; at += INDEX_BLOCK_BYTES) {
    const start = db.readUInt32LE(at);
    const end = db.readUInt32LE(at + 4);
    const pointer = db.readUInt32LE(at + 8);
    let province = provinceByPointer.get(pointer);
    if (province === undefined) {
      province = recordProvince(db, pointer, source);
      provinceByPointer.set(pointer, province);
    }
    if (province !== null) builder.add([start], [end], province);
  }
  return builder.build();
}

function recordProvince(db: Buffer, pointer: number, source: string): string | null {
  const offset = pointer & 0xffffff;
  const length = pointer >>> 24;
  if (length < CITY_ID_BYTES || offset + length > db.length) throw new Error(`${source}: bad data pointer ${pointer}`);
  const record = parseRegionText(db.toString('utf8', offset + CITY_ID_BYTES, offset + length));
  return provinceOfRegion(record.country, record.province);
}
