import { mergeRanges, type AddressRange } from '@rampart/contracts';
import { rangesOf, type FamilyRanges } from './ranges.ts';

/*
 * What a threat-intel feed may never block, whatever it lists: private, loopback, link-local,
 * shared (CGNAT), multicast and unspecified space, and IPv6 ULA, link-local, loopback. The
 * documentation ranges (TEST-NET) stay blockable on purpose: tests block them for real.
 */
export const alwaysSubtracted: readonly string[] = [
  '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.168.0.0/16', '224.0.0.0/4', '255.255.255.255',
  '::', '::1', 'fc00::/7', 'fe80::/10', 'ff00::/8',
];

/** `ranges` minus `minus`; both merged (sorted, disjoint), the answer merged too. */
export function subtractRanges(ranges: readonly AddressRange[], minus: readonly AddressRange[]): AddressRange[] {
  const out: AddressRange[] = [];
  let j = 0;
  for (const range of ranges) {
    let start = range.start;
    const end = range.end;
    while (j < minus.length && minus[j]!.end < start) j++;
    let k = j;
    while (k < minus.length && minus[k]!.start <= end && start <= end) {
      const cut = minus[k]!;
      if (cut.start > start) out.push({ start, end: cut.start - 1n });
      if (cut.end >= end) {
        start = end + 1n;
        break;
      }
      start = cut.end + 1n;
      k++;
    }
    if (start <= end) out.push({ start, end });
  }
  return out;
}

/**
 * A feed's entries as the kernel gets them: merged, with the always-subtracted space and the
 * administrator's exemptions (super whitelist, own ranges, own addresses) taken out.
 */
export function feedRanges(entries: readonly string[], exempt: readonly string[]): FamilyRanges {
  const listed = rangesOf(entries);
  const cut = rangesOf([...alwaysSubtracted, ...exempt]);
  return { v4: mergeRanges(subtractRanges(listed.v4, cut.v4)), v6: mergeRanges(subtractRanges(listed.v6, cut.v6)) };
}
