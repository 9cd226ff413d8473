import { addressFamily, addressToBigInt, entryBounds, mergeRanges, parseAddressEntry, type AddressRange } from '@rampart/contracts';

/**
 * A set of addresses from list entries (single, CIDR, range, `*`), as merged sorted ranges per
 * family: one binary search per lookup, whatever the number of entries.
 */
export interface AddressSet {
  any: boolean;
  v4: AddressRange[];
  v6: AddressRange[];
}

export function buildAddressSet(entries: readonly string[]): AddressSet {
  const v4: AddressRange[] = [];
  const v6: AddressRange[] = [];
  let any = false;
  for (const text of entries) {
    const entry = parseAddressEntry(text);
    if (!entry) continue; // the schema refused these already; a stale stored value just matches nothing
    const bounds = entryBounds(entry);
    if (!bounds) any = true;
    else (bounds.family === 4 ? v4 : v6).push({ start: bounds.start, end: bounds.end });
  }
  return { any, v4: mergeRanges(v4), v6: mergeRanges(v6) };
}

/** An address parsed once per request, then looked up in every list. */
export interface ClientAddress {
  family: 4 | 6;
  value: bigint;
}

export function clientAddress(ip: string): ClientAddress | null {
  const family = addressFamily(ip);
  const value = addressToBigInt(ip);
  if (!family || value === null) return null;
  // An IPv4-mapped IPv6 address (::ffff:a.b.c.d, as dual-stack sockets report) is the IPv4 client.
  if (family === 6 && value >> 32n === 0xffffn) return { family: 4, value: value & 0xffffffffn };
  return { family, value };
}

export function setHas(set: AddressSet, address: ClientAddress | null): boolean {
  if (!address) return false;
  if (set.any) return true;
  const ranges = address.family === 4 ? set.v4 : set.v6;
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const range = ranges[mid]!;
    if (address.value < range.start) high = mid - 1;
    else if (address.value > range.end) low = mid + 1;
    else return true;
  }
  return false;
}

/**
 * Area codes of a list, with common areas (`common:<id>`) expanded to the codes they name. A
 * common area that no longer exists names nothing.
 */
export function expandAreas(codes: readonly string[], commonAreas: ReadonlyMap<number, readonly string[]>): ReadonlySet<string> {
  const set = new Set<string>();
  for (const code of codes) {
    const match = /^common:(\d+)$/.exec(code);
    if (match) for (const inner of commonAreas.get(Number(match[1])) ?? []) set.add(inner);
    else set.add(code);
  }
  return set;
}

export function areasMeet(set: ReadonlySet<string>, clientAreas: readonly string[]): boolean {
  if (set.size === 0) return false;
  for (const area of clientAreas) if (set.has(area)) return true;
  return false;
}
