import { localDateTime, localDay } from '@rampart/contracts';

/* Display helpers for sizes, speeds and dates (spec, section 9). */

const sizeUnits = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;
const speedUnits = ['bps', 'Kbps', 'Mbps', 'Gbps'] as const;

function scaled(value: number, step: number, units: readonly string[]): string {
  let v = Number.isFinite(value) && value > 0 ? value : 0;
  let i = 0;
  while (v >= step && i < units.length - 1) {
    v /= step;
    i++;
  }
  // Whole bytes / bits have no fractions worth showing; larger units get one decimal.
  return i === 0 ? `${Math.round(v)} ${units[0]}` : `${v.toFixed(1)} ${units[i]}`;
}

/** Bytes in steps of 1024 from B to YB: 1536 → "1.5 KB". */
export function formatSize(bytes: number): string {
  return scaled(bytes, 1024, sizeUnits);
}

/** Bits per second in steps of 1000: bps, Kbps, Mbps, then Gbps for anything larger. */
export function formatSpeed(bitsPerSecond: number): string {
  return scaled(bitsPerSecond, 1000, speedUnits);
}

/** Whole percent of used/total, 0 when total is 0. */
export function percentOf(used: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.min(100, Math.max(0, Math.round((used / total) * 100)));
}

/** An epoch-milliseconds date as YYYY-MM-DD, the same in both languages. */
export const formatDate = localDay;

/** An epoch-milliseconds time as YYYY-MM-DD HH:mm:ss (local), the same in both languages. */
export const formatDateTime = localDateTime;
