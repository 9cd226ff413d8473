import { parseAddressEntry } from '@rampart/contracts';
import type { AddressList, PlannedIntercept, PlannedListEntry } from './desired-state.ts';
import { families, interceptSetName, listSetName, scanBlockSetName, scanMeterName, scanSeenSetName, tableName } from './layout.ts';
import { family, rangeElement, type NftCommand, type NftScript } from './nft-json.ts';
import { rangesOf } from './ranges.ts';
import { interceptElements, listElements } from './plan-sets.ts';

/* Small changes to the sets, without touching the rest of the table. */

const target = (name: string) => ({ family, table: tableName, name });

/**
 * `add` then `delete` of the same element: the add is a no-op when it is there, so the delete
 * never fails on an element the kernel already let expire.
 */
function removeElements(name: string, values: unknown[]): NftCommand[] {
  if (values.length === 0) return [];
  return [{ add: { element: { ...target(name), elem: values } } }, { delete: { element: { ...target(name), elem: values } } }];
}

function addElements(name: string, values: unknown[]): NftCommand[] {
  return values.length === 0 ? [] : [{ add: { element: { ...target(name), elem: values } } }];
}

function hostsByFamily(addresses: readonly string[]): Record<4 | 6, string[]> {
  const out: Record<4 | 6, string[]> = { 4: [], 6: [] };
  for (const text of addresses) {
    const entry = parseAddressEntry(text);
    if (entry?.kind === 'host') out[entry.family].push(entry.address);
  }
  return out;
}

export interface ListChange {
  list: AddressList;
  /** Single addresses added (with their end) and removed. */
  addedHosts: readonly PlannedListEntry[];
  removedHosts: readonly string[];
  /** Network and range entries of the list before and after: they are re-merged, then diffed. */
  netsBefore: readonly string[];
  netsAfter: readonly string[];
  now: number;
}

export function planListChange(change: ListChange): NftScript {
  const commands: NftCommand[] = [];
  const removed = hostsByFamily(change.removedHosts);
  const added = listElements(change.addedHosts, change.now).host;
  const before = rangesOf(change.netsBefore);
  const after = rangesOf(change.netsAfter);
  for (const fam of families) {
    const hostSet = listSetName(change.list, 'host', fam);
    commands.push(...removeElements(hostSet, removed[fam]), ...addElements(hostSet, added[fam]));
    const key = (r: { start: bigint; end: bigint }) => `${r.start}-${r.end}`;
    const beforeRanges = fam === 4 ? before.v4 : before.v6;
    const afterRanges = fam === 4 ? after.v4 : after.v6;
    const afterKeys = new Set(afterRanges.map(key));
    const beforeKeys = new Set(beforeRanges.map(key));
    const netSet = listSetName(change.list, 'net', fam);
    // Deletes first: a merged interval that grew must leave before its larger self arrives.
    const gone = beforeRanges.filter((r) => !afterKeys.has(key(r))).map((r) => rangeElement(r, fam));
    const fresh = afterRanges.filter((r) => !beforeKeys.has(key(r))).map((r) => rangeElement(r, fam));
    if (gone.length > 0) commands.push({ delete: { element: { ...target(netSet), elem: gone } } });
    commands.push(...addElements(netSet, fresh));
  }
  return { nftables: commands };
}

export function planInterceptAdd(entries: readonly PlannedIntercept[], now: number): NftScript {
  const elements = interceptElements(entries, now);
  return { nftables: families.flatMap((fam) => addElements(interceptSetName(fam), elements[fam])) };
}

/**
 * Unblocking: out of the interception set and out of the kernel's own port-scan set. The
 * port-scan buckets are emptied too, or the next packet of a scanner just unblocked would find
 * its bucket still overflowing and be blocked again at once.
 */
export function planInterceptRemove(ips: readonly string[], scanSeconds: number): NftScript {
  const byFamily = hostsByFamily(ips);
  return {
    nftables: families.flatMap((fam) => [
      ...removeElements(interceptSetName(fam), byFamily[fam]),
      ...removeElements(scanBlockSetName(fam), byFamily[fam]),
      ...(byFamily[fam].length > 0 ? [{ flush: { set: target(scanMeterName(fam, scanSeconds)) } }, { flush: { set: target(scanSeenSetName(fam, scanSeconds)) } }] : []),
    ]),
  };
}

/** Empties a set: used for "delete all" on a list. */
export function planFlushList(list: AddressList): NftScript {
  return { nftables: families.flatMap((fam) => (['host', 'net'] as const).map((kind) => ({ flush: { set: target(listSetName(list, kind, fam)) } }))) };
}
