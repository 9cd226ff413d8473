import { exactPrefix, formatAddress, type AddressRange } from '@rampart/contracts';

/* Builders for nft's JSON syntax (libnftables-json(5)), so the planner reads like the ruleset it makes. */

export type NftExpr = Record<string, unknown>;
export type NftCommand = Record<string, unknown>;
export interface NftScript {
  nftables: NftCommand[];
}

export const family = 'inet';

export function match(left: unknown, right: unknown, op = '=='): NftExpr {
  return { match: { op, left, right } };
}
export function payload(protocol: string, field: string): NftExpr {
  return { payload: { protocol, field } };
}
export function meta(key: string): NftExpr {
  return { meta: { key } };
}
export function setRef(name: string): string {
  return `@${name}`;
}
export function concat(...parts: unknown[]): NftExpr {
  return { concat: parts };
}
export const accept: NftExpr = { accept: null };
export const drop: NftExpr = { drop: null };
export const returnVerdict: NftExpr = { return: null };
export function jump(target: string): NftExpr {
  return { jump: { target } };
}
export function counter(): NftExpr {
  return { counter: null };
}

/** One set element for an address range: a plain address, a prefix, or a range. */
export function rangeElement(range: AddressRange, fam: 4 | 6): unknown {
  if (range.start === range.end) return formatAddress(range.start, fam);
  const prefix = exactPrefix(range, fam);
  if (prefix !== null) return { prefix: { addr: formatAddress(range.start, fam), len: prefix } };
  return { range: [formatAddress(range.start, fam), formatAddress(range.end, fam)] };
}

/** A port list as a set element list: single ports and `{range: [a, b]}`. */
export function portElements(ports: ReadonlyArray<readonly [number, number]>): unknown[] {
  return ports.map(([from, to]) => (from === to ? from : { range: [from, to] }));
}

/** `ip saddr` / `ip6 daddr` and friends. */
export function addressField(fam: 4 | 6, field: 'saddr' | 'daddr'): NftExpr {
  return payload(fam === 4 ? 'ip' : 'ip6', field);
}
