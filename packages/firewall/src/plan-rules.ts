import { parsePortList, type FirewallDirection, type FirewallRule } from '@rampart/contracts';
import type { AreaResolver } from './desired-state.ts';
import { addrType, areaSetName, families, tableName } from './layout.ts';
import { accept, addressField, drop, family, match, meta, payload, portElements, rangeElement, setRef, type NftCommand, type NftExpr } from './nft-json.ts';
import { rangesOf } from './ranges.ts';
import { parseAddressEntry } from '@rampart/contracts';

/* Inbound and outbound rules: one nft rule per (rule, address family, addresses or areas). */

/**
 * The order rules are consulted: priority 1 first; at equal priority a deny goes before an allow
 * (the cautious reading); then the older rule.
 */
export function ruleOrder(a: FirewallRule, b: FirewallRule): number {
  if (a.priority !== b.priority) return a.priority - b.priority;
  if (a.action !== b.action) return a.action === 'deny' ? -1 : 1;
  return a.id - b.id;
}

export function activeRules(rules: readonly FirewallRule[], direction: FirewallDirection): FirewallRule[] {
  return rules.filter((rule) => rule.enabled && rule.direction === direction).sort(ruleOrder);
}

function protocolMatch(rule: FirewallRule): NftExpr[] {
  const l4 = meta('l4proto');
  switch (rule.protocol) {
    case 'tcp':
      return [match(l4, 'tcp')];
    case 'udp':
      return [match(l4, 'udp')];
    case 'tcp_udp':
      return [match(l4, { set: ['tcp', 'udp'] })];
    case 'icmp':
      return [match(l4, { set: ['icmp', 'ipv6-icmp'] })];
    case 'all':
      return [];
  }
}

function portMatch(rule: FirewallRule): NftExpr[] {
  if (rule.protocol === 'icmp' || rule.protocol === 'all') return [];
  const ports = parsePortList(rule.ports);
  if (ports === null || ports === 'any') return [];
  return [match(payload('th', 'dport'), { set: portElements(ports) })];
}

/** The area sets a rule needs, declared and filled. Empty areas give no set (and no nft rule). */
export function areaSets(rule: FirewallRule, areas: AreaResolver): Array<{ name: string; fam: 4 | 6; commands: NftCommand[] }> {
  if (rule.areas.length === 0 || rule.ips.some((ip) => ip.trim() === '*')) return [];
  const resolved = areas.ranges(rule.areas);
  const out: Array<{ name: string; fam: 4 | 6; commands: NftCommand[] }> = [];
  for (const fam of families) {
    const texts = fam === 4 ? resolved.v4 : resolved.v6;
    const merged = rangesOf(texts.filter((text) => parseAddressEntry(text) !== null));
    const elements = (fam === 4 ? merged.v4 : merged.v6).map((range) => rangeElement(range, fam));
    if (elements.length === 0) continue;
    const name = areaSetName(rule.id, fam);
    out.push({
      name,
      fam,
      commands: [
        { add: { set: { family, table: tableName, name, type: addrType(fam), flags: ['interval'] } } },
        { add: { element: { family, table: tableName, name, elem: elements } } },
      ],
    });
  }
  return out;
}

/** The nft rules of one firewall rule, in `chain`. */
export function planRule(rule: FirewallRule, chain: string, areaSetsOfRule: ReadonlyArray<{ name: string; fam: 4 | 6 }>): NftCommand[] {
  const field = rule.direction === 'in' ? 'saddr' : 'daddr';
  const head = [...protocolMatch(rule), ...portMatch(rule)];
  const verdict = rule.action === 'allow' ? accept : drop;
  const add = (expr: NftExpr[]): NftCommand => ({ add: { rule: { family, table: tableName, chain, comment: `rule ${rule.id}`, expr: [...expr, verdict] } } });
  const addresses = rangesOf(rule.ips);
  if (addresses.any) return [add(head)];
  const commands: NftCommand[] = [];
  for (const fam of families) {
    const ranges = fam === 4 ? addresses.v4 : addresses.v6;
    if (ranges.length > 0) commands.push(add([...head, match(addressField(fam, field), { set: ranges.map((r) => rangeElement(r, fam)) })]));
  }
  for (const set of areaSetsOfRule) commands.push(add([...head, match(addressField(set.fam, field), setRef(set.name))]));
  return commands;
}
