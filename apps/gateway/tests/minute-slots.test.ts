import { describe, expect, it } from 'vitest';
import { MinuteSlots } from '../src/minute-slots.ts';

/** The one CC and 404-scan counter: what "more than N requests a minute" means, exactly. */
const noon = Date.UTC(2026, 11, 6, 12, 0, 0);

describe('the minute counter behind CC protection and the 404 scan', () => {
  it('"more than N" is literal and per address: the Nth request in a minute passes, the N+1th is over', () => {
    const slots = new MinuteSlots(100);
    const over = (ip: string, now: number) => slots.add(ip, now) > 3;
    expect(over('a', noon)).toBe(false);
    expect(over('a', noon + 10)).toBe(false);
    expect(over('a', noon + 20)).toBe(false);
    expect(over('b', noon + 20)).toBe(false);
    expect(over('a', noon + 30)).toBe(true);
  });

  it('slides second by second: a request leaves the window 60 s after its second', () => {
    const slots = new MinuteSlots(100);
    slots.add('a', noon); // second 0
    slots.add('a', noon + 30_000); // second 30
    expect(slots.add('a', noon + 59_999)).toBe(3); // second 59: all three in the window
    expect(slots.count('a', noon + 60_000)).toBe(2); // second 60: second 0 has left
    expect(slots.add('a', noon + 60_000)).toBe(3); // 30, 59, 60
    expect(slots.add('a', noon + 120_000)).toBe(1); // second 120: 30, 59 and 60 have all left
  });

  it('forgets addresses silent for a minute', () => {
    const slots = new MinuteSlots(100);
    slots.add('a', noon);
    slots.add('b', noon + 30_000);
    slots.prune(noon + 60_000);
    expect(slots.size).toBe(1);
    expect(slots.count('b', noon + 60_000)).toBe(1);
  });
});
