import { entryBounds, formatAddress, parseAddressEntry } from '@rampart/contracts';

/**
 * One spelling per entry, so `2001:DB8:0::1` and `2001:db8::1` are the same list entry:
 * hosts and bounds in canonical form, a CIDR as `addr/len`, a range as `a-b`.
 */
export function canonicalEntry(text: string): { address: string; isHost: boolean } | null {
  const entry = parseAddressEntry(text);
  const bounds = entry ? entryBounds(entry) : null;
  if (!entry || !bounds) return null;
  const start = formatAddress(bounds.start, bounds.family);
  switch (entry.kind) {
    case 'host':
      return { address: start, isHost: true };
    case 'cidr':
      return { address: `${start}/${entry.prefix}`, isHost: false };
    default:
      return { address: `${start}-${formatAddress(bounds.end, bounds.family)}`, isHost: false };
  }
}
