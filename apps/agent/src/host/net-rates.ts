import type { NetRates } from '@rampart/contracts';
import type { InterfaceCounters } from './net-dev.ts';

export interface NetSample {
  /** Wall-clock time of the sample, ms since the epoch (reported as `at`). */
  at: number;
  /** Monotonic time of the sample in ms, for the interval (wall clock can jump). */
  monotonicMs: number;
  counters: ReadonlyMap<string, InterfaceCounters>;
}

/** Loopback traffic is the host talking to itself, not network load. */
export function isLoopback(name: string): boolean {
  return name === 'lo';
}

/**
 * Bits per second received and sent between two samples, summed over every interface but
 * loopback that appears in both. A counter that went down (wrap, driver reset, interface
 * re-created) contributes 0 for that interval rather than a negative or huge rate.
 */
export function computeNetRates(previous: NetSample, current: NetSample): NetRates {
  const seconds = (current.monotonicMs - previous.monotonicMs) / 1000;
  if (!(seconds > 0)) return { rx: 0, tx: 0, at: current.at };
  let rxBytes = 0;
  let txBytes = 0;
  for (const [name, now] of current.counters) {
    if (isLoopback(name)) continue;
    const before = previous.counters.get(name);
    if (!before) continue;
    rxBytes += Math.max(0, now.rxBytes - before.rxBytes);
    txBytes += Math.max(0, now.txBytes - before.txBytes);
  }
  return { rx: (rxBytes * 8) / seconds, tx: (txBytes * 8) / seconds, at: current.at };
}
