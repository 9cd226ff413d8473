/**
 * Per-address request counters over a sliding minute, for CC protection and the 404 scan. The
 * gateway holds one per rule in memory. Each address keeps 60 one-second buckets; the window is the
 * current second and the 59 before it, so the count is exact to the second and the memory is fixed
 * (about 0.5 KB per address seen within the last minute), whatever the threshold.
 */
export interface MinuteCounter {
  /** Over the threshold means MORE than this many in the window (the firewall's reading). */
  perMinute: number;
  clients: Map<string, { seconds: Float64Array; counts: Uint32Array; last: number }>;
}

export function createMinuteCounter(perMinute: number): MinuteCounter {
  return { perMinute, clients: new Map() };
}

/** Counts one event for `ip` at `now` (ms); true when the minute now holds more than `perMinute`. */
export function recordRequest(counter: MinuteCounter, ip: string, now: number): boolean {
  const second = Math.floor(now / 1000);
  let client = counter.clients.get(ip);
  if (!client) {
    client = { seconds: new Float64Array(60).fill(-1), counts: new Uint32Array(60), last: second };
    counter.clients.set(ip, client);
  }
  const slot = ((second % 60) + 60) % 60;
  if (client.seconds[slot] !== second) {
    client.seconds[slot] = second;
    client.counts[slot] = 0;
  }
  client.counts[slot]! += 1;
  client.last = Math.max(client.last, second);
  return windowCount(counter, ip, now) > counter.perMinute;
}

/** Events of `ip` in the minute ending at `now`. */
export function windowCount(counter: MinuteCounter, ip: string, now: number): number {
  const client = counter.clients.get(ip);
  if (!client) return 0;
  const second = Math.floor(now / 1000);
  let total = 0;
  for (let i = 0; i < 60; i++) {
    const at = client.seconds[i]!;
    if (at > second - 60 && at <= second) total += client.counts[i]!;
  }
  return total;
}

/** Forgets the addresses silent for a minute; the gateway calls it every few seconds. */
export function pruneCounter(counter: MinuteCounter, now: number): void {
  const second = Math.floor(now / 1000);
  for (const [ip, client] of counter.clients) if (client.last <= second - 60) counter.clients.delete(ip);
}

/** Forgets one address (after it is put on the interception list, its count starts again). */
export function resetClient(counter: MinuteCounter, ip: string): void {
  counter.clients.delete(ip);
}
