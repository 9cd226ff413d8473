import { bigIntToWords, formatIPv4, formatIPv6 } from './ip-address.ts';
import type { BigRange } from './merge-ranges.ts';

/**
 * nftables interval-set text for one range: `a.b.c.d/n` when the range is exactly one CIDR block
 * (a lone address is a /32 or /128), otherwise `start-end`. nft accepts both forms.
 */
export function rangeText([start, end]: BigRange, family: 4 | 6): string {
  const bits = family === 4 ? 32 : 128;
  const format = (value: bigint) => (family === 4 ? formatIPv4(Number(value)) : formatIPv6(bigIntToWords(value)));
  const size = end - start + 1n;
  const isBlock = (size & (size - 1n)) === 0n && (start & (size - 1n)) === 0n;
  if (isBlock) return `${format(start)}/${bits - (size.toString(2).length - 1)}`;
  return `${format(start)}-${format(end)}`;
}
