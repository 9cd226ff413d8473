import { describe, expect, it } from 'vitest';
import { BoundedQueue } from '../src/queue.ts';

describe('BoundedQueue', () => {
  it('is first in, first out across the wrap-around', () => {
    const q = new BoundedQueue<number>(3);
    expect([q.push(1), q.push(2), q.shift(), q.push(3), q.push(4)]).toEqual([false, false, 1, false, false]);
    expect([q.shift(), q.shift(), q.shift(), q.shift(), q.length]).toEqual([2, 3, 4, undefined, 0]);
  });

  it('evicts the oldest when full and says so', () => {
    const q = new BoundedQueue<number>(2);
    expect([1, 2, 3, 4].map((n) => q.push(n))).toEqual([false, false, true, true]);
    expect([q.length, q.shift(), q.shift()]).toEqual([2, 3, 4]);
  });

  it('clears, returning how many it held', () => {
    const q = new BoundedQueue<string>(5);
    q.push('a');
    q.push('b');
    expect(q.clear()).toBe(2);
    expect([q.length, q.shift()]).toEqual([0, undefined]);
    expect(() => new BoundedQueue(0)).toThrow(RangeError);
  });
});
