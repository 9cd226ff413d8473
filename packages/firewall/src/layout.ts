import type { AddressList } from './desired-state.ts';

/* Names in Rampart's one nftables table. Nothing outside this table is ever touched. */

export const tableName = 'rampart';
/**
 * Base chains run at `filter - 10`: before the filter chains of iptables-nft, firewalld and
 * distribution tables (priority 0), so a Rampart drop happens first. An accept here does not
 * override another table's drop: every base chain on a hook sees the packet.
 */
export const chainPriority = -10;

export const chains = { input: 'input', output: 'output', rulesIn: 'rules_in', rulesOut: 'rules_out', attack: 'attack_in', remote: 'remote_in' } as const;
/** Chains every plan declares; the remote chain exists only while remote protection is on. */
export const alwaysDeclaredChains = [chains.input, chains.output, chains.rulesIn, chains.rulesOut, chains.attack] as const;

/** Single addresses sit in hash sets (O(1), per-element timeouts); networks and ranges in interval sets. */
export function listSetName(list: AddressList, kind: 'host' | 'net', fam: 4 | 6): string {
  return `${list}_${kind}_v${fam}`;
}
export function interceptSetName(fam: 4 | 6): string {
  return `intercept_v${fam}`;
}
/** Sources the kernel blocked by itself (port scan); the agent moves them into the interception list. */
export function scanBlockSetName(fam: 4 | 6): string {
  return `scan_block_v${fam}`;
}
/**
 * The port-scan window is part of these sets' declaration, and the kernel marks them dynamic once
 * a rule fills them, so they cannot be re-declared: a new window gets new names.
 */
export function scanSeenSetName(fam: 4 | 6, seconds: number): string {
  return `scan_seen_v${fam}_${seconds}s`;
}
export function scanMeterName(fam: 4 | 6, seconds: number): string {
  return `scan_meter_v${fam}_${seconds}s`;
}
export function areaSetName(ruleId: number, fam: 4 | 6): string {
  return `area_r${ruleId}_v${fam}`;
}
/** The authorized areas of remote protection. */
export function remoteAreaSetName(fam: 4 | 6): string {
  return `remote_area_v${fam}`;
}
export const families = [4, 6] as const;
export function addrType(fam: 4 | 6): string {
  return fam === 4 ? 'ipv4_addr' : 'ipv6_addr';
}
