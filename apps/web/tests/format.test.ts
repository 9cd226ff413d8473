import { describe, expect, it } from 'vitest';
import { formatDate, formatSize, formatSpeed, percentOf } from '../src/utils/format.ts';

describe('formatSize', () => {
  it('steps by 1024 with one decimal', () => {
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(1024)).toBe('1.0 KB');
    expect(formatSize(1023)).toBe('1023 B');
    expect(formatSize(5 * 1024 ** 3)).toBe('5.0 GB');
    expect(formatSize(1.25 * 1024 ** 4)).toBe('1.3 TB');
  });

  it('goes up to YB and no further', () => {
    expect(formatSize(1024 ** 8)).toBe('1.0 YB');
    expect(formatSize(2048 * 1024 ** 8)).toBe('2048.0 YB');
  });

  it('shows nonsense input as zero rather than NaN', () => {
    expect(formatSize(0)).toBe('0 B');
    expect(formatSize(-5)).toBe('0 B');
    expect(formatSize(Number.NaN)).toBe('0 B');
  });
});

describe('formatSpeed', () => {
  it('steps by 1000: bps, Kbps, Mbps', () => {
    expect(formatSpeed(999)).toBe('999 bps');
    expect(formatSpeed(1000)).toBe('1.0 Kbps');
    expect(formatSpeed(2500)).toBe('2.5 Kbps');
    expect(formatSpeed(1_500_000)).toBe('1.5 Mbps');
  });

  it('uses Gbps above that, without going further', () => {
    expect(formatSpeed(10_000_000_000)).toBe('10.0 Gbps');
    expect(formatSpeed(5_000_000_000_000)).toBe('5000.0 Gbps');
  });
});

describe('percentOf and formatDate', () => {
  it('rounds and clamps percentages', () => {
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(5, 0)).toBe(0);
    expect(percentOf(12, 10)).toBe(100);
  });

  it('formats epoch milliseconds as a local date', () => {
    expect(formatDate(new Date(2027, 0, 31, 15).getTime())).toBe('2027-01-31');
  });
});
