import { describe, expect, it } from 'vitest';
import { mergeRanges, rangeText, type AddressRange } from '@rampart/contracts';
import { addressValue } from './helpers/bounds.ts';

const v4 = (from: string, to: string): AddressRange => ({ start: addressValue(from), end: addressValue(to) });

describe('range text for nftables', () => {
  it('writes a CIDR only when the range is exactly one block', () => {
    expect(rangeText(v4('10.0.0.0', '10.0.0.255'), 4)).toBe('10.0.0.0/24');
    expect(rangeText(v4('10.0.0.1', '10.0.0.9'), 4)).toBe('10.0.0.1-10.0.0.9');
    expect(rangeText(v4('10.0.0.0', '10.0.1.255'), 4)).toBe('10.0.0.0/23');
    // Right size, wrong alignment: 10.0.1.0–10.0.2.255 is 512 addresses but not a /23.
    expect(rangeText(v4('10.0.1.0', '10.0.2.255'), 4)).toBe('10.0.1.0-10.0.2.255');
    expect(rangeText(v4('10.0.0.0', '10.0.0.254'), 4)).toBe('10.0.0.0-10.0.0.254');
    expect(rangeText(v4('1.2.3.4', '1.2.3.4'), 4)).toBe('1.2.3.4/32');
    expect(rangeText(v4('0.0.0.0', '255.255.255.255'), 4)).toBe('0.0.0.0/0');
  });

  it('writes IPv6 compressed', () => {
    const v6 = (from: string, to: string): AddressRange => ({ start: addressValue(from), end: addressValue(to) });
    expect(rangeText(v6('2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'), 6)).toBe('2001:db8::/32');
    expect(rangeText(v6('2001:db8::1', '2001:db8::9'), 6)).toBe('2001:db8::1-2001:db8::9');
    expect(rangeText(v6('::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'), 6)).toBe('::/0');
    expect(rangeText(v6('2001:db8::5', '2001:db8::5'), 6)).toBe('2001:db8::5/128');
  });

  it('joins overlapping and adjacent ranges, keeps gaps, and sorts', () => {
    const merged = mergeRanges([
      v4('10.0.2.0', '10.0.2.255'),
      v4('10.0.0.0', '10.0.0.255'),
      v4('10.0.1.0', '10.0.1.255'), // touches both neighbours
      v4('10.0.0.10', '10.0.0.20'), // inside
      v4('10.0.4.0', '10.0.4.9'), // gap of 10.0.3.x before it
      v4('10.0.4.5', '10.0.4.20'), // overlaps the tail
    ]);
    expect(merged.map((r) => rangeText(r, 4))).toEqual(['10.0.0.0-10.0.2.255', '10.0.4.0-10.0.4.20']);
    expect(mergeRanges([v4('10.0.0.0', '10.0.0.127'), v4('10.0.0.128', '10.0.0.255')]).map((r) => rangeText(r, 4))).toEqual(['10.0.0.0/24']);
    expect(mergeRanges([v4('10.0.0.0', '10.0.0.127'), v4('10.0.0.129', '10.0.0.255')])).toHaveLength(2);
    expect(mergeRanges([])).toEqual([]);
  });
});
