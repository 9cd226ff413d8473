import { describe, expect, it } from 'vitest';
import { parseMeminfo } from '../src/index.ts';
import { fixture } from './fixtures.ts';

describe('parseMeminfo', () => {
  it('reports bytes: total = MemTotal, available = MemAvailable, used = the difference', () => {
    expect(parseMeminfo(fixture('meminfo.txt'))).toEqual({
      total: 24684096 * 1024,
      available: 24277948 * 1024,
      used: (24684096 - 24277948) * 1024,
    });
  });

  it('estimates available from free + buffers + cache on kernels without MemAvailable', () => {
    const memory = parseMeminfo(fixture('meminfo-old-kernel.txt'));
    expect(memory.available).toBe((512000 + 100000 + 300000) * 1024);
    expect(memory.used).toBe(memory.total - memory.available);
  });

  it('refuses text without MemTotal', () => {
    expect(() => parseMeminfo('MemFree: 1 kB\n')).toThrow(/MemTotal/);
  });
});
