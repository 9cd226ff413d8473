import { entryBounds, parseAddressEntry, type AddressEntry } from '@rampart/contracts';

/** A closed interval of addresses of one family, as numbers. */
export interface AddressRange {
  start: bigint;
  end: bigint;
}

export interface FamilyRanges {
  v4: AddressRange[];
  v6: AddressRange[];
}

/** Sorts and joins overlapping or adjacent ranges, so an nft interval set never sees a conflict. */
export function mergeRanges(ranges: readonly AddressRange[]): AddressRange[] {
  const sorted = [...ranges].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const merged: AddressRange[] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range.start <= last.end + 1n) {
      if (range.end > last.end) last.end = range.end;
    } else {
      merged.push({ start: range.start, end: range.end });
    }
  }
  return merged;
}

/** Splits entries by family into merged ranges; `*` gives `any: true` and no ranges. */
export function rangesOf(entries: readonly (string | AddressEntry)[]): FamilyRanges & { any: boolean } {
  const v4: AddressRange[] = [];
  const v6: AddressRange[] = [];
  let any = false;
  for (const raw of entries) {
    const entry = typeof raw === 'string' ? parseAddressEntry(raw) : raw;
    if (!entry) continue;
    if (entry.kind === 'any') {
      any = true;
      continue;
    }
    const bounds = entryBounds(entry);
    if (bounds) (bounds.family === 4 ? v4 : v6).push({ start: bounds.start, end: bounds.end });
  }
  return { any, v4: mergeRanges(v4), v6: mergeRanges(v6) };
}

export function formatAddress(value: bigint, family: 4 | 6): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
  const groups: string[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(((value >> shift) & 0xffffn).toString(16));
  // The canonical form: the longest run of zero groups (two or more) becomes `::`.
  let bestStart = -1;
  let bestLength = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== '0') {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j += 1;
    if (j - i > bestLength && j - i >= 2) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  if (bestStart < 0) return groups.join(':');
  return `${groups.slice(0, bestStart).join(':')}::${groups.slice(bestStart + bestLength).join(':')}`;
}

/** The prefix length when the range is exactly one CIDR block, else null. */
export function exactPrefix(range: AddressRange, family: 4 | 6): number | null {
  const width = family === 4 ? 32 : 128;
  const size = range.end - range.start + 1n;
  if ((size & (size - 1n)) !== 0n) return null;
  if (range.start % size !== 0n) return null;
  let bits = 0;
  while (1n << BigInt(bits) < size) bits += 1;
  return width - bits;
}
