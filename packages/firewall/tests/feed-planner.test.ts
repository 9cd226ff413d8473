import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rangeText } from '@rampart/contracts';
import { feedHitsOf, feedRanges, planFeeds, planFeedsRemoval, subtractRanges } from '../src/index.ts';

/** Compares with tests/golden/<name>.json; `UPDATE_GOLDEN=1` rewrites it after a deliberate change. */
function golden(name: string, value: unknown): void {
  const file = join(import.meta.dirname, 'golden', `${name}.json`);
  const text = `${JSON.stringify(value, null, 1)}\n`;
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, 'utf8'));
}

const texts = (ranges: readonly { start: bigint; end: bigint }[], fam: 4 | 6) => ranges.map((r) => rangeText(r, fam));

describe('threat-intel feed ranges', () => {
  it('subtracts one sorted range list from another', () => {
    const r = (start: number, end: number) => ({ start: BigInt(start), end: BigInt(end) });
    expect(subtractRanges([r(0, 100)], [r(10, 19), r(50, 60), r(95, 200)])).toEqual([r(0, 9), r(20, 49), r(61, 94)]);
    expect(subtractRanges([r(0, 10), r(20, 30)], [r(0, 30)])).toEqual([]);
    expect(subtractRanges([r(5, 5)], [])).toEqual([r(5, 5)]);
  });

  it('always takes out private, loopback, link-local, CGNAT and multicast space, and the exemptions; keeps TEST-NET', () => {
    const ranges = feedRanges(
      ['0.0.0.0/0', '::/0'],
      ['198.51.100.7', '2001:db8::/32'],
    );
    const v4 = texts(ranges.v4, 4);
    expect(v4).not.toContain('10.0.0.0/8');
    for (const inside of ['10.1.2.3', '127.0.0.1', '169.254.1.1', '172.16.5.5', '192.168.1.1', '100.64.0.1', '224.0.0.1', '198.51.100.7']) {
      const value = inside.split('.').reduce((acc, part) => acc * 256n + BigInt(part), 0n);
      expect(ranges.v4.some((r) => r.start <= value && value <= r.end), inside).toBe(false);
    }
    expect(texts(feedRanges(['198.51.100.0/24', '198.51.100.0/25'], ['198.51.100.7']).v4, 4)).toEqual(['198.51.100.0-198.51.100.6', '198.51.100.8-198.51.100.255']);
    const v6 = texts(ranges.v6, 6);
    expect(v6.some((t) => t.startsWith('fc00') || t.startsWith('fe80') || t.startsWith('ff00') || t.startsWith('2001:db8::/'))).toBe(false);
    expect(v6[0]).toBe('::2-2001:db7:ffff:ffff:ffff:ffff:ffff:ffff');
  });
});

describe('feed planner', () => {
  const feeds = [
    { id: 7, ...feedRanges(['203.0.113.0/25', '203.0.113.128/25', '192.168.0.0/16'], []) },
    { id: 2, ...feedRanges(['198.51.100.5', '198.51.100.10-198.51.100.20', '2001:db8::/48'], []) },
    { id: 9, v4: [], v6: [] },
  ];

  it('plans its own table: a set and counted drop rule per feed and family (golden)', () => {
    const script = planFeeds(feeds);
    golden('feeds', script);
    expect(planFeeds(structuredClone(feeds))).toEqual(script);
    const text = JSON.stringify(script);
    // Two halves of a /24 merge into one element; an empty feed still has its counter, no rule.
    expect(text).toContain('{"prefix":{"addr":"203.0.113.0","len":24}}');
    expect(text).toContain('"name":"feed_9"');
    expect(text).not.toContain('feed_9_v4');
  });

  it('removes the table when the module is off, and reads hits back from nft counters', () => {
    expect(planFeedsRemoval().nftables).toEqual([{ add: { table: { family: 'inet', name: 'rampart_cloud' } } }, { delete: { table: { family: 'inet', name: 'rampart_cloud' } } }]);
    const listing = { nftables: [{ metainfo: {} }, { counter: { family: 'inet', name: 'feed_2', table: 'rampart_cloud', packets: 5, bytes: 300 } }, { counter: { family: 'inet', name: 'other', table: 'rampart_cloud', packets: 1 } }] };
    expect([...feedHitsOf(listing)]).toEqual([[2, 5]]);
  });
});
