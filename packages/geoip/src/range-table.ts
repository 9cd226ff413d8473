import type { AddressRange } from '@rampart/contracts';
/**
 * One sorted table of address ranges → labels, packed in typed arrays (a few bytes per range,
 * not an object each). `width` is the number of 32-bit words per address: 1 for IPv4, 4 for IPv6.
 * Row i covers starts[i*width …] to ends[i*width …] inclusive and carries labels[labelIndex[i]].
 * Rows are sorted by start and do not overlap.
 */
export interface RangeTable {
  width: 1 | 4;
  rows: number;
  starts: Uint32Array;
  ends: Uint32Array;
  labelIndex: Uint16Array;
  labels: string[];
}

/** Compares the address at words[at…] with key (width words): negative, zero or positive. */
function compareAt(words: Uint32Array, at: number, key: ArrayLike<number>, width: number): number {
  for (let i = 0; i < width; i++) {
    const a = words[at + i]!;
    const b = key[i]!;
    if (a !== b) return a < b ? -1 : 1;
  }
  return 0;
}

/** The label of the range holding `key` (width words), or null: binary search, O(log n). */
export function findLabel(table: RangeTable, key: ArrayLike<number>): string | null {
  const { width } = table;
  // The last row whose start ≤ key, then check that key ≤ its end.
  let low = 0;
  let high = table.rows - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    if (compareAt(table.starts, mid * width, key, width) <= 0) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  if (found < 0 || compareAt(table.ends, found * width, key, width) < 0) return null;
  return table.labels[table.labelIndex[found]!] ?? null;
}

/** Rows counted per label, for diagnostics. */
export function rowsPerLabel(table: RangeTable): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < table.rows; i++) {
    const label = table.labels[table.labelIndex[i]!]!;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return counts;
}

function addressAt(words: Uint32Array, at: number, width: number): bigint {
  if (width === 1) return BigInt(words[at]!);
  let value = 0n;
  for (let i = 0; i < width; i++) value = (value << 32n) | BigInt(words[at + i]!);
  return value;
}

/** Every row whose label is in `wanted`, as integer ranges (for set building, not lookups). */
export function rangesWithLabels(table: RangeTable, wanted: ReadonlySet<string>): AddressRange[] {
  const ids = new Set<number>();
  table.labels.forEach((label, id) => {
    if (wanted.has(label)) ids.add(id);
  });
  const out: AddressRange[] = [];
  if (ids.size === 0) return out;
  for (let i = 0; i < table.rows; i++) {
    if (ids.has(table.labelIndex[i]!)) {
      out.push({ start: addressAt(table.starts, i * table.width, table.width), end: addressAt(table.ends, i * table.width, table.width) });
    }
  }
  return out;
}
