import { parseAddressEntry } from '@rampart/contracts';
import { formatAddress, rangesOf } from '@rampart/firewall';
import { addressToBigInt } from '@rampart/contracts';

/**
 * One spelling per entry, so `2001:DB8:0::1` and `2001:db8::1` are the same list entry:
 * hosts and bounds in canonical form, a CIDR as `addr/len`, a range as `a-b`.
 */
export function canonicalEntry(text: string): { address: string; isHost: boolean } | null {
  const entry = parseAddressEntry(text);
  if (!entry || entry.kind === 'any') return null;
  switch (entry.kind) {
    case 'host':
      return { address: formatAddress(addressToBigInt(entry.address) ?? 0n, entry.family), isHost: true };
    case 'cidr':
      return { address: `${formatAddress(addressToBigInt(entry.address) ?? 0n, entry.family)}/${entry.prefix}`, isHost: false };
    case 'range': {
      const [range] = entry.family === 4 ? rangesOf([text]).v4 : rangesOf([text]).v6;
      if (!range) return null;
      return { address: `${formatAddress(range.start, entry.family)}-${formatAddress(range.end, entry.family)}`, isHost: false };
    }
  }
}
