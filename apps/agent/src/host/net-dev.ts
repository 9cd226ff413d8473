export interface InterfaceCounters {
  rxBytes: number;
  txBytes: number;
}

/**
 * Parses /proc/net/dev into byte counters per interface. Columns after "name:" are
 * 8 receive fields then 8 transmit fields; bytes are the first of each group.
 * Old kernels print "eth0:123" with no space, so split on the colon, not on whitespace.
 */
export function parseNetDev(text: string): Map<string, InterfaceCounters> {
  const counters = new Map<string, InterfaceCounters>();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0 || line.includes('|')) continue;
    const name = line.slice(0, colon).trim();
    const fields = line.slice(colon + 1).trim().split(/\s+/);
    const rxBytes = Number(fields[0]);
    const txBytes = Number(fields[8]);
    if (!name || fields.length < 9 || !Number.isFinite(rxBytes) || !Number.isFinite(txBytes)) continue;
    counters.set(name, { rxBytes, txBytes });
  }
  return counters;
}
