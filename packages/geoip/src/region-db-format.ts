/**
 * The ip2region v1 `ip2region.db` layout, as read from the shipped file (all integers LE):
 *   0   super block: uint32 first index block offset, uint32 last index block offset
 *   8   header index: 8-byte entries (uint32 start ip, uint32 index block offset) for the
 *       original B-tree search, one per INDEX_BLOCKS_PER_HEADER_ENTRY blocks and one for the
 *       last block, zero-padded to HEADER_BLOCK_BYTES (readers here use the super block only)
 *   …   data records: uint32 city id, then UTF-8 text `国家|区域|省份|城市|ISP` ('0' = unknown)
 *   …   index blocks, INDEX_BLOCK_BYTES each, sorted, covering 0.0.0.0–255.255.255.255:
 *       uint32 start ip, uint32 end ip (inclusive), uint32 data pointer =
 *       record offset (low 24 bits) | record length in bytes incl. the city id (high 8 bits)
 */
export const SUPER_BLOCK_BYTES = 8;
export const HEADER_BLOCK_BYTES = 16384;
export const INDEX_BLOCK_BYTES = 12;
/** Index blocks between header entries in the shipped file (an 8 KiB page, less a margin). */
export const INDEX_BLOCKS_PER_HEADER_ENTRY = 680;
export const CITY_ID_BYTES = 4;

export interface RegionRecord {
  country: string;
  region: string;
  province: string;
  city: string;
  isp: string;
}

export function parseRegionText(text: string): RegionRecord {
  const [country = '0', region = '0', province = '0', city = '0', isp = '0'] = text.split('|');
  return { country, region, province, city, isp };
}
