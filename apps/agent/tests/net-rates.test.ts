import { describe, expect, it } from 'vitest';
import { computeNetRates, parseNetDev, type NetSample } from '../src/index.ts';
import { fixture } from './fixtures.ts';

function sample(text: string, at: number, monotonicMs: number): NetSample {
  return { at, monotonicMs, counters: parseNetDev(text) };
}

describe('parseNetDev', () => {
  it('reads byte counters per interface, including "name:number" without a space', () => {
    const counters = parseNetDev(fixture('net-dev-1.txt'));
    expect([...counters.keys()]).toEqual(['lo', 'eth0', 'wlan0']);
    expect(counters.get('eth0')).toEqual({ rxBytes: 5000, txBytes: 8000 });
    expect(counters.get('wlan0')).toEqual({ rxBytes: 1000, txBytes: 2000 });
  });

  it('ignores headers and malformed lines', () => {
    expect(parseNetDev('garbage\n eth0: 1 2 3\n').size).toBe(0);
  });
});

describe('computeNetRates', () => {
  const first = sample(fixture('net-dev-1.txt'), 1_000, 50_000);
  const second = sample(fixture('net-dev-2.txt'), 3_000, 52_000);

  it('sums bits per second over non-loopback interfaces seen in both samples; resets count as 0', () => {
    // eth0: +125000 B rx; wlan0: rx went down (reset) → 0, +25000 B tx; tun0 is new; lo excluded.
    expect(computeNetRates(first, second)).toEqual({ rx: (125_000 * 8) / 2, tx: (25_000 * 8) / 2, at: 3_000 });
  });

  it('never goes negative: counters that went backwards add 0, the rest still count', () => {
    // Going from sample 2 back to sample 1's counters over 1 s: eth0 rx and wlan0 tx fell (→ 0),
    // eth0 tx stayed put, only wlan0 rx rose (500 → 1000 B).
    const rates = computeNetRates(second, { ...first, at: 5_000, monotonicMs: 53_000 });
    expect(rates).toEqual({ rx: 500 * 8, tx: 0, at: 5_000 });
  });

  it('reports zero for a zero or negative interval', () => {
    expect(computeNetRates(second, { ...second })).toEqual({ rx: 0, tx: 0, at: 3_000 });
  });
});
