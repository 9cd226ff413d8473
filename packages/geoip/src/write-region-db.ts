import {
  CITY_ID_BYTES,
  HEADER_BLOCK_BYTES,
  INDEX_BLOCKS_PER_HEADER_ENTRY,
  INDEX_BLOCK_BYTES,
  SUPER_BLOCK_BYTES,
} from './region-db-format.ts';

export interface RegionSegment {
  start: number;
  end: number;
  /** Record text: `国家|区域|省份|城市|ISP`. */
  text: string;
}

const UNKNOWN = '0|0|0|0|0';

/**
 * Builds an ip2region v1 `ip2region.db` (layout in region-db-format.ts). Segments must not
 * overlap; gaps are filled with an all-unknown record so the index covers every IPv4 address,
 * as in the shipped file.
 */
export function buildRegionDb(segments: readonly RegionSegment[]): Buffer {
  const blocks = coverAll([...segments].sort((a, b) => a.start - b.start));
  const records: Buffer[] = [];
  const pointerOf = new Map<string, number>();
  let dataEnd = SUPER_BLOCK_BYTES + HEADER_BLOCK_BYTES;
  for (const { text } of blocks) {
    if (pointerOf.has(text)) continue;
    const record = Buffer.concat([Buffer.alloc(CITY_ID_BYTES), Buffer.from(text)]);
    if (record.length > 255 || dataEnd > 0xffffff) throw new Error('ip2region.db: record too long or data too large');
    pointerOf.set(text, ((record.length << 24) | dataEnd) >>> 0);
    records.push(record);
    dataEnd += record.length;
  }
  const firstIndex = dataEnd;
  const index = Buffer.alloc(blocks.length * INDEX_BLOCK_BYTES);
  blocks.forEach(({ start, end, text }, i) => {
    index.writeUInt32LE(start, i * INDEX_BLOCK_BYTES);
    index.writeUInt32LE(end, i * INDEX_BLOCK_BYTES + 4);
    index.writeUInt32LE(pointerOf.get(text)!, i * INDEX_BLOCK_BYTES + 8);
  });
  const head = Buffer.alloc(SUPER_BLOCK_BYTES + HEADER_BLOCK_BYTES);
  head.writeUInt32LE(firstIndex, 0);
  head.writeUInt32LE(firstIndex + (blocks.length - 1) * INDEX_BLOCK_BYTES, 4);
  // Header index for the original B-tree search: every page's first block, and the last block.
  let entry = 0;
  blocks.forEach(({ start }, i) => {
    if (i % INDEX_BLOCKS_PER_HEADER_ENTRY !== 0 && i !== blocks.length - 1) return;
    head.writeUInt32LE(start, SUPER_BLOCK_BYTES + entry * 8);
    head.writeUInt32LE(firstIndex + i * INDEX_BLOCK_BYTES, SUPER_BLOCK_BYTES + entry * 8 + 4);
    entry++;
  });
  return Buffer.concat([head, ...records, index]);
}

function coverAll(sorted: RegionSegment[]): RegionSegment[] {
  const out: RegionSegment[] = [];
  let next = 0; // first address not yet covered
  for (const segment of sorted) {
    if (segment.start < next || segment.end < segment.start || segment.end > 0xffffffff) {
      throw new Error(`ip2region.db: segment ${segment.start}-${segment.end} overlaps or is out of range`);
    }
    if (segment.start > next) out.push({ start: next, end: segment.start - 1, text: UNKNOWN });
    out.push(segment);
    next = segment.end + 1;
  }
  if (next <= 0xffffffff) out.push({ start: next, end: 0xffffffff, text: UNKNOWN });
  return out;
}
