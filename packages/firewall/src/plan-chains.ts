import { addressLists, type DesiredFirewall } from './desired-state.ts';
import { chainPriority, chains, families, interceptSetName, listSetName, scanBlockSetName, scanMeterName, scanSeenSetName, tableName } from './layout.ts';
import { planRemoteJump, remoteActive } from './plan-remote.ts';
import { accept, addressField, concat, drop, family, jump, match, meta, payload, returnVerdict, setRef, type NftCommand, type NftExpr } from './nft-json.ts';

/* The chains: the order every packet meets Rampart's checks in. */

const rule = (chain: string, expr: NftExpr[], comment?: string): NftCommand => ({
  add: { rule: { family, table: tableName, chain, ...(comment ? { comment } : {}), expr } },
});

export function planChainDeclarations(): NftCommand[] {
  const base = (name: string, hook: string): NftCommand => ({
    add: { chain: { family, table: tableName, name, type: 'filter', hook, prio: chainPriority, policy: 'accept' } },
  });
  const regular = (name: string): NftCommand => ({ add: { chain: { family, table: tableName, name } } });
  return [base(chains.input, 'input'), base(chains.output, 'output'), regular(chains.rulesIn), regular(chains.rulesOut), regular(chains.attack)];
}

/** IPv6 stops working without neighbour discovery, whatever a rule says. */
const neighbourDiscovery = match(payload('icmpv6', 'type'), {
  set: ['nd-neighbor-solicit', 'nd-neighbor-advert', 'nd-router-solicit', 'nd-router-advert', 'packet-too-big'],
});
const connectionTracked = match({ ct: { key: 'state' } }, ['established', 'related'], 'in');

/**
 * Inbound: loopback, super whitelist (accept) > remote protection on sshd's ports > whitelist (accept) > blacklist > interception list (drop)
 * > replies of allowed connections > inbound rules > attack protection > accept.
 * The lists come before the connection-tracking accept so a block also ends a running connection.
 */
export function planInputChain(desired: DesiredFirewall): NftCommand[] {
  const commands: NftCommand[] = [rule(chains.input, [match(meta('iif'), 'lo'), accept])];
  for (const list of addressLists) {
    const verdict = list === 'black' ? drop : accept;
    for (const fam of families) {
      for (const kind of ['host', 'net'] as const) {
        commands.push(rule(chains.input, [match(addressField(fam, 'saddr'), setRef(listSetName(list, kind, fam))), verdict], `${list} list`));
      }
    }
    // Remote protection right after the super whitelist: only the super whitelist (and loopback) bypass it.
    if (list === 'super' && remoteActive(desired.remote)) commands.push(planRemoteJump(desired.remote));
  }
  for (const fam of families) {
    commands.push(rule(chains.input, [match(addressField(fam, 'saddr'), setRef(interceptSetName(fam))), drop], 'interception list'));
    commands.push(rule(chains.input, [match(addressField(fam, 'saddr'), setRef(scanBlockSetName(fam))), drop], 'interception list (port scan)'));
  }
  commands.push(rule(chains.input, [connectionTracked, accept]));
  commands.push(rule(chains.input, [neighbourDiscovery, accept]));
  commands.push(rule(chains.input, [jump(chains.rulesIn)]));
  if (desired.portScan.enabled) commands.push(rule(chains.input, [jump(chains.attack)]));
  return commands;
}

/** Outbound: loopback, replies, the super whitelist, then the outbound rules. */
export function planOutputChain(): NftCommand[] {
  const commands: NftCommand[] = [rule(chains.output, [match(meta('oif'), 'lo'), accept]), rule(chains.output, [connectionTracked, accept])];
  for (const fam of families) {
    for (const kind of ['host', 'net'] as const) {
      commands.push(rule(chains.output, [match(addressField(fam, 'daddr'), setRef(listSetName('super', kind, fam))), accept], 'super list'));
    }
  }
  commands.push(rule(chains.output, [neighbourDiscovery, accept]));
  commands.push(rule(chains.output, [jump(chains.rulesOut)]));
  return commands;
}

/**
 * The token bucket of the port-scan check: `burst` distinct ports pass at once, refilled at
 * `ports` per `seconds`; the next new port overflows. So "more than N ports in S seconds" blocks,
 * as a sliding rate rather than fixed windows. The rate is written in the smallest unit that
 * keeps it a whole number.
 */
export function scanLimit(ports: number, seconds: number): { rate: number; per: string; burst: number } {
  for (const [per, unit] of [['second', 1], ['minute', 60], ['hour', 3600], ['day', 86_400]] as const) {
    const rate = (ports * unit) / seconds;
    if (Number.isInteger(rate) && rate >= 1) return { rate, per, burst: ports };
  }
  return { rate: Math.max(1, Math.round((ports * 86_400) / seconds)), per: 'day', burst: ports };
}

/** Port scan: each (source, port) counts once per window; a source over its bucket is blocked in the kernel. */
export function planAttackChain(desired: DesiredFirewall): NftCommand[] {
  const { ports, seconds, block_minutes } = desired.portScan;
  const l4 = match(meta('l4proto'), { set: ['tcp', 'udp'] });
  const commands: NftCommand[] = [];
  for (const fam of families) {
    const source = addressField(fam, 'saddr');
    const pair = concat(source, payload('th', 'dport'));
    const seen = setRef(scanSeenSetName(fam, seconds));
    commands.push(rule(chains.attack, [l4, match(pair, seen), returnVerdict]));
    commands.push(rule(chains.attack, [l4, { set: { op: 'add', elem: pair, set: seen } }]));
    commands.push(
      rule(
        chains.attack,
        [
          l4,
          { set: { op: 'update', elem: source, set: setRef(scanMeterName(fam, seconds)), stmt: [{ limit: { ...scanLimit(ports, seconds), inv: true } }] } },
          { set: { op: 'add', elem: { elem: { val: source, timeout: block_minutes * 60 } }, set: setRef(scanBlockSetName(fam)) } },
          drop,
        ],
        'port scan',
      ),
    );
  }
  return commands;
}
