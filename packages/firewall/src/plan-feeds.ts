import type { AddressRange } from '@rampart/contracts';
import { addrType, families } from './layout.ts';
import { addressField, drop, family, match, rangeElement, setRef, type NftCommand, type NftScript } from './nft-json.ts';

/*
 * Threat-intel feeds get a table of their own (`inet rampart_cloud`): cloud protection is switched
 * on and off apart from the firewall, and a feed update replaces only this table, in one
 * transaction, never the firewall's. Its input chain runs just before the firewall's (-10), so a
 * feed drop happens first; the administrator's addresses are kept out of the sets beforehand
 * (feed-ranges.ts), since an accept in another table cannot undo a drop here.
 */

export const feedTableName = 'rampart_cloud';
export const feedChainPriority = -15;

export function feedSetName(id: number, fam: 4 | 6): string {
  return `feed_${id}_v${fam}`;
}
/** A named counter per feed: both families' drop rules count into it, and the agent reads it back as hits. */
export function feedCounterName(id: number): string {
  return `feed_${id}`;
}

/** One enabled feed, its ranges already subtracted and merged. */
export interface PlannedFeed {
  id: number;
  v4: readonly AddressRange[];
  v6: readonly AddressRange[];
}

/** The whole feed table: `add` + `delete` + `add` replaces it whether or not it exists. Feeds in id order. */
export function planFeeds(feeds: readonly PlannedFeed[]): NftScript {
  const table = { family, name: feedTableName };
  const base = { family, table: feedTableName };
  const commands: NftCommand[] = [
    { add: { table } },
    { delete: { table } },
    { add: { table } },
    { add: { chain: { ...base, name: 'input', type: 'filter', hook: 'input', prio: feedChainPriority, policy: 'accept' } } },
  ];
  for (const feed of [...feeds].sort((a, b) => a.id - b.id)) {
    commands.push({ add: { counter: { ...base, name: feedCounterName(feed.id) } } });
    for (const fam of families) {
      const ranges = fam === 4 ? feed.v4 : feed.v6;
      if (ranges.length === 0) continue;
      const name = feedSetName(feed.id, fam);
      commands.push({ add: { set: { ...base, name, type: addrType(fam), flags: ['interval'] } } });
      commands.push({ add: { element: { ...base, name, elem: ranges.map((range) => rangeElement(range, fam)) } } });
      commands.push({
        add: { rule: { ...base, chain: 'input', comment: `feed ${feed.id}`, expr: [match(addressField(fam, 'saddr'), setRef(name)), { counter: feedCounterName(feed.id) }, drop] } },
      });
    }
  }
  return { nftables: commands };
}

/** Removes the feed table: the module is off. Harmless when it is already gone. */
export function planFeedsRemoval(): NftScript {
  const table = { family, name: feedTableName };
  return { nftables: [{ add: { table } }, { delete: { table } }] };
}

/** Packets counted per feed id, from `nft -j list counters table inet rampart_cloud`. */
export function feedHitsOf(listing: unknown): Map<number, number> {
  const out = new Map<number, number>();
  const items = (listing as { nftables?: unknown[] } | null)?.nftables ?? [];
  for (const item of items) {
    const counter = (item as { counter?: { name?: string; table?: string; packets?: number } }).counter;
    const id = /^feed_(\d+)$/.exec(counter?.name ?? '')?.[1];
    if (counter?.table === feedTableName && id !== undefined && typeof counter.packets === 'number') out.set(Number(id), counter.packets);
  }
  return out;
}
