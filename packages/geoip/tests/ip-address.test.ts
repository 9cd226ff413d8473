import { describe, expect, it } from 'vitest';
import { formatIPv4, formatIPv6, mappedIPv4, parseIPv4, parseIPv6 } from '../src/ip-address.ts';

describe('IP address text', () => {
  it('parses and formats IPv4', () => {
    expect(parseIPv4('0.0.0.0')).toBe(0);
    expect(parseIPv4('255.255.255.255')).toBe(0xffffffff);
    expect(parseIPv4('114.114.114.114')).toBe(0x72727272);
    for (const bad of ['1.2.3', '1.2.3.4.5', '256.1.1.1', '01.2.3.4', '1.2.3.x', '', ' 1.2.3.4']) expect(parseIPv4(bad), bad).toBeNull();
    expect(formatIPv4(0xc0a80101)).toBe('192.168.1.1');
  });

  it('parses every IPv6 text form', () => {
    expect(parseIPv6('::')).toEqual([0, 0, 0, 0]);
    expect(parseIPv6('::1')).toEqual([0, 0, 0, 1]);
    expect(parseIPv6('2001:4860:4860::8888')).toEqual([0x20014860, 0x48600000, 0, 0x8888]);
    expect(parseIPv6('2001:4860:4860:0:0:0:0:8888')).toEqual(parseIPv6('2001:4860:4860::8888'));
    expect(parseIPv6('FFFF:ffff:ffff:ffff:ffff:ffff:ffff:ffff')).toEqual([0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff]);
    expect(parseIPv6('::ffff:1.2.3.4')).toEqual([0, 0, 0xffff, 0x01020304]);
    expect(parseIPv6('::1.2.3.4')).toEqual([0, 0, 0, 0x01020304]);
    expect(parseIPv6('64:ff9b::192.0.2.1')).toEqual([0x0064ff9b, 0, 0, 0xc0000201]);
    expect(parseIPv6('1:2:3:4:5:6:7.8.9.10')).toEqual([0x00010002, 0x00030004, 0x00050006, 0x0708090a]);
    for (const bad of ['1.2.3.4', ':', '1::2::3', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7', '12345::', 'g::1', '::1.2.3', '1:2:3:4:5:6:7::8:9']) {
      expect(parseIPv6(bad), bad).toBeNull();
    }
  });

  it('formats IPv6 the RFC 5952 way', () => {
    const text = (s: string) => formatIPv6(parseIPv6(s)!);
    expect(text('2001:0db8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(text('::')).toBe('::');
    expect(text('1::')).toBe('1::');
    expect(text('2001:db8:0:1:1:1:1:1')).toBe('2001:db8:0:1:1:1:1:1'); // a lone zero group stays
    expect(text('2001:0:0:1:0:0:0:1')).toBe('2001:0:0:1::1'); // the longest run wins
    expect(text('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1'); // the first of equal runs
  });

  it('recognises IPv4-mapped IPv6', () => {
    expect(mappedIPv4(parseIPv6('::ffff:8.8.8.8')!)).toBe(0x08080808);
    expect(mappedIPv4(parseIPv6('::ffff:808:808')!)).toBe(0x08080808);
    expect(mappedIPv4(parseIPv6('::8.8.8.8')!)).toBeNull();
    expect(mappedIPv4(parseIPv6('2001:db8::ffff:808:808')!)).toBeNull();
  });
});
