import { entryBounds, mergeRanges, parseAddressEntry, type AddressEntry, type AddressRange } from '@rampart/contracts';

export interface FamilyRanges {
  v4: AddressRange[];
  v6: AddressRange[];
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
