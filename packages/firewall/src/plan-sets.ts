import { parseAddressEntry } from '@rampart/contracts';
import { addressLists, type DesiredFirewall, type PlannedIntercept, type PlannedListEntry } from './desired-state.ts';
import { addrType, families, interceptSetName, listSetName, scanBlockSetName, scanMeterName, scanSeenSetName, tableName } from './layout.ts';
import { family, rangeElement, type NftCommand } from './nft-json.ts';
import { rangesOf } from './ranges.ts';

/* Declarations and contents of the address sets: the lists, the interception list, the port-scan state. */

const setBase = (name: string) => ({ family, table: tableName, name });

/** Seconds left until `expiresAt` (ms), at least 1; undefined for no end. */
export function secondsLeft(expiresAt: number | null, now: number): number | undefined {
  if (expiresAt === null) return undefined;
  return Math.max(1, Math.ceil((expiresAt - now) / 1000));
}

/** Host entries become hash-set elements (with a timeout when they end); the rest, merged interval elements. */
export function listElements(entries: readonly PlannedListEntry[], now: number): Record<'host' | 'net', Record<4 | 6, unknown[]>> {
  const hosts: Record<4 | 6, unknown[]> = { 4: [], 6: [] };
  const seen = new Map<string, { family: 4 | 6; address: string; expires_at: number | null }>();
  const nets: string[] = [];
  for (const entry of entries) {
    if (entry.expires_at !== null && entry.expires_at <= now) continue;
    const parsed = parseAddressEntry(entry.address);
    if (!parsed || parsed.kind === 'any') continue;
    if (parsed.kind !== 'host') {
      nets.push(entry.address);
      continue;
    }
    // One element per address (nft refuses a duplicate in one command): the one that lasts longest.
    const key = parsed.address.toLowerCase();
    const known = seen.get(key);
    if (known && (known.expires_at === null || (entry.expires_at !== null && entry.expires_at <= known.expires_at))) continue;
    seen.set(key, { family: parsed.family, address: parsed.address, expires_at: entry.expires_at });
  }
  for (const { family: fam, address, expires_at } of seen.values()) {
    const timeout = secondsLeft(expires_at, now);
    hosts[fam].push(timeout === undefined ? address : { elem: { val: address, timeout } });
  }
  const merged = rangesOf(nets);
  return {
    host: hosts,
    net: { 4: merged.v4.map((r) => rangeElement(r, 4)), 6: merged.v6.map((r) => rangeElement(r, 6)) },
  };
}

export function interceptElements(entries: readonly PlannedIntercept[], now: number): Record<4 | 6, unknown[]> {
  const out: Record<4 | 6, unknown[]> = { 4: [], 6: [] };
  const seen = new Set<string>();
  for (const entry of entries) {
    if (entry.expires_at <= now) continue;
    const parsed = parseAddressEntry(entry.ip);
    if (!parsed || parsed.kind !== 'host' || seen.has(parsed.address)) continue;
    seen.add(parsed.address);
    out[parsed.family].push({ elem: { val: parsed.address, timeout: secondsLeft(entry.expires_at, now) } });
  }
  return out;
}

function addElements(name: string, elem: unknown[]): NftCommand[] {
  return elem.length === 0 ? [] : [{ add: { element: { ...setBase(name), elem } } }];
}

/** The list and interception sets, declared and filled. They survive rule changes untouched. */
export function planStateSets(desired: DesiredFirewall): NftCommand[] {
  const commands: NftCommand[] = [];
  for (const list of addressLists) {
    const elements = listElements(desired.lists[list], desired.now);
    for (const fam of families) {
      const host = listSetName(list, 'host', fam);
      const net = listSetName(list, 'net', fam);
      commands.push({ add: { set: { ...setBase(host), type: addrType(fam), flags: ['timeout'] } } });
      commands.push({ add: { set: { ...setBase(net), type: addrType(fam), flags: ['interval'] } } });
      commands.push(...addElements(host, elements.host[fam]), ...addElements(net, elements.net[fam]));
    }
  }
  const intercept = interceptElements(desired.intercept, desired.now);
  for (const fam of families) {
    const name = interceptSetName(fam);
    commands.push({ add: { set: { ...setBase(name), type: addrType(fam), flags: ['timeout'] } } });
    commands.push(...addElements(name, intercept[fam]));
    // Filled by the kernel's port-scan rule (each element with its block time); drained by the agent.
    commands.push({ add: { set: { ...setBase(scanBlockSetName(fam)), type: addrType(fam), flags: ['timeout'], size: 65_536 } } });
  }
  return commands;
}

/** Port-scan state: which (source, port) pairs were seen within the window, and a token bucket per source. */
export function planScanSets(desired: DesiredFirewall): NftCommand[] {
  const { seconds } = desired.portScan;
  return families.flatMap((fam) => [
    { add: { set: { ...setBase(scanSeenSetName(fam, seconds)), type: [addrType(fam), 'inet_service'], flags: ['timeout'], timeout: seconds, size: 262_144 } } },
    { add: { set: { ...setBase(scanMeterName(fam, seconds)), type: addrType(fam), flags: ['timeout'], timeout: seconds, size: 65_536 } } },
  ]);
}
