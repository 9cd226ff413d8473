import { parseAddressEntry, parsePortList, type FirewallRule } from '@rampart/contracts';
import type { AgentPort } from '../context.ts';

/** Same order as the firewall consults its rules: priority, then deny before allow, then the older rule. */
function ruleOrder(a: FirewallRule, b: FirewallRule): number {
  if (a.priority !== b.priority) return a.priority - b.priority;
  if (a.action !== b.action) return a.action === 'deny' ? -1 : 1;
  return a.id - b.id;
}

function coversPort(rule: FirewallRule, port: number): boolean {
  if (rule.protocol === 'icmp' || rule.protocol === 'udp') return false;
  if (rule.protocol === 'all') return true;
  const ports = parsePortList(rule.ports);
  return ports === 'any' || (ports !== null && ports.some(([from, to]) => port >= from && port <= to));
}

/**
 * Would the host firewall keep a new visitor out of `port`? Choice: the firewall's default is to
 * let traffic in, so the port is "not opened" when, with the module on, the first inbound rule
 * that covers TCP on that port for every source (`*`) denies it — the same stranger's view the
 * agent takes for its own panel-port warning. Rules for listed addresses or areas say nothing
 * about a stranger. The agent being away means no warning (it cannot be told), not a refusal.
 */
export async function firewallBlocksPort(agent: AgentPort, port: number): Promise<boolean> {
  try {
    const status = await agent.call('firewall.status', {});
    if (status.kernel === 'off') return false;
    const rules: FirewallRule[] = [];
    for (let offset = 0; ; offset += 1000) {
      const page = await agent.call('firewall.rules.list', { direction: 'in', offset, limit: 1000 });
      rules.push(...page.list);
      if (page.list.length < 1000) break;
    }
    for (const rule of rules.filter((r) => r.enabled && r.direction === 'in').sort(ruleOrder)) {
      if (!coversPort(rule, port)) continue;
      if (rule.ips.some((ip) => parseAddressEntry(ip)?.kind === 'any')) return rule.action === 'deny';
    }
    return false;
  } catch {
    return false;
  }
}
