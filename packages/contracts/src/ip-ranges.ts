/* Address ranges as numbers, and their text for nftables. Shared by the geo-IP data and the firewall planner. */

/** A closed interval of addresses of one family (32-bit IPv4 or 128-bit IPv6 values). */
export interface AddressRange {
  start: bigint;
  end: bigint;
}

/** Sorts and joins ranges that overlap or touch (end + 1 == next start), so an nft interval set never sees a conflict. */
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

/** Address text: dotted quad, or RFC 5952 IPv6 (lower case, the longest run of two or more zero groups as `::`). */
export function formatAddress(value: bigint, family: 4 | 6): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
  const groups: string[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(((value >> shift) & 0xffffn).toString(16));
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
  const size = range.end - range.start + 1n;
  if ((size & (size - 1n)) !== 0n || (range.start & (size - 1n)) !== 0n) return null;
  return (family === 4 ? 32 : 128) - (size.toString(2).length - 1);
}

/**
 * nftables interval-set text for one range: `a.b.c.d/n` when the range is exactly one CIDR block
 * (a lone address is a /32 or /128), otherwise `start-end`. nft accepts both forms.
 */
export function rangeText(range: AddressRange, family: 4 | 6): string {
  const prefix = exactPrefix(range, family);
  return prefix === null ? `${formatAddress(range.start, family)}-${formatAddress(range.end, family)}` : `${formatAddress(range.start, family)}/${prefix}`;
}
