import { addressFamily, entryCovers, parseAddressEntry, parsePortList, type FirewallRule } from '@rampart/contracts';
import type { AreaLookup, DesiredFirewall } from './desired-state.ts';
import { activeRules } from './plan-rules.ts';
import { remoteActive, type PlannedRemote } from './plan-remote.ts';
import { insideWindows } from './remote-time.ts';

/* What the planned ruleset does to one new inbound connection, computed without the kernel.
   Used to tell whether a change would cut the administrator off, before it is applied. */

export interface InboundProbe {
  source: string;
  protocol: 'tcp' | 'udp';
  port: number;
}

export type Verdict = { verdict: 'accept' | 'drop'; by: 'loopback' | 'super' | 'remote' | 'white' | 'black' | 'intercept' | 'rule' | 'default'; ruleId?: number };

function listCovers(entries: DesiredFirewall['lists']['white'], ip: string, now: number): boolean {
  return entries.some((entry) => {
    if (entry.expires_at !== null && entry.expires_at <= now) return false;
    const parsed = parseAddressEntry(entry.address);
    return parsed !== null && parsed.kind !== 'any' && entryCovers(parsed, ip);
  });
}

function ruleMatches(rule: FirewallRule, probe: InboundProbe, areaOf: AreaLookup): boolean {
  if (rule.protocol === 'icmp') return false;
  if (rule.protocol !== 'all' && rule.protocol !== 'tcp_udp' && rule.protocol !== probe.protocol) return false;
  if (rule.protocol !== 'all') {
    const ports = parsePortList(rule.ports);
    if (ports === null) return false;
    if (ports !== 'any' && !ports.some(([from, to]) => probe.port >= from && probe.port <= to)) return false;
  }
  const entries = rule.ips.map(parseAddressEntry);
  if (entries.some((entry) => entry?.kind === 'any')) return true;
  if (entries.some((entry) => entry !== null && entryCovers(entry, probe.source))) return true;
  if (rule.areas.length === 0) return false;
  const areas = areaOf(probe.source);
  return rule.areas.some((code) => areas.includes(code));
}

/** Remote protection lets a new connection to sshd through: an authorized source, inside a window (at the plan's `now`). */
function remoteAllows(remote: PlannedRemote, probe: InboundProbe, areaOf: AreaLookup, now: number): boolean {
  const entries = remote.ips.map(parseAddressEntry);
  const authorized =
    entries.some((entry) => entry !== null && (entry.kind === 'any' || entryCovers(entry, probe.source))) ||
    (remote.areas.length > 0 && areaOf(probe.source).some((code) => remote.areas.includes(code)));
  return authorized && insideWindows(remote.windows, remote.utcOffsetMinutes, now);
}

export function evaluateInbound(desired: DesiredFirewall, probe: InboundProbe, areaOf: AreaLookup): Verdict {
  if (addressFamily(probe.source) === null) return { verdict: 'drop', by: 'default' };
  if (probe.source === '127.0.0.1' || probe.source === '::1') return { verdict: 'accept', by: 'loopback' };
  const { now } = desired;
  if (listCovers(desired.lists.super, probe.source, now)) return { verdict: 'accept', by: 'super' };
  const remote = desired.remote;
  if (remoteActive(remote) && probe.protocol === 'tcp' && remote.ports.includes(probe.port) && !remoteAllows(remote, probe, areaOf, now)) {
    return { verdict: 'drop', by: 'remote' };
  }
  if (listCovers(desired.lists.white, probe.source, now)) return { verdict: 'accept', by: 'white' };
  if (listCovers(desired.lists.black, probe.source, now)) return { verdict: 'drop', by: 'black' };
  if (desired.intercept.some((entry) => entry.ip === probe.source && entry.expires_at > now)) return { verdict: 'drop', by: 'intercept' };
  for (const rule of activeRules(desired.rules, 'in')) {
    if (ruleMatches(rule, probe, areaOf)) return { verdict: rule.action === 'allow' ? 'accept' : 'drop', by: 'rule', ruleId: rule.id };
  }
  return { verdict: 'accept', by: 'default' };
}
