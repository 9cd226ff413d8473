import { tableName } from './layout.ts';
import { family } from './nft-json.ts';
import type { NftExecutor } from './executor.ts';

/* Noticing that someone flushed or edited Rampart's table: the terse listing (no set elements,
   which change by themselves) without handles and counters, compared with the one taken right
   after the last apply. */

function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'handle' || key === 'elem' || key === 'expires' || key === 'counter') continue;
      out[key] = normalize(inner);
    }
    return out;
  }
  return value;
}

/** The table's shape as a string, or null when the table is missing. */
export async function tableFingerprint(nft: NftExecutor): Promise<string | null> {
  try {
    const listing = (await nft.read(['-t', 'list', 'table', family, tableName])) as { nftables?: Array<Record<string, unknown>> };
    const items = (listing.nftables ?? []).filter((item) => !('metainfo' in item));
    return JSON.stringify(normalize(items));
  } catch {
    return null;
  }
}
