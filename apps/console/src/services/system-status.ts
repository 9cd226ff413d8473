import {
  type AccountStatus, type EngineHealth, type EngineHealthReason, type FirewallStatus, type GuardStatus, type ModuleFlags, type ModuleKey,
  type ProcessStatus, type RemoteView, type TrojanStatus,
} from '@rampart/contracts';
import type { ConsoleContext } from '../context.ts';
import { askGateway, type GatewayAnswer, type GatewayPaths } from '../website/gateway-link.ts';
import { countProtectedSites } from '../website/site-store.ts';

/*
 * The inputs of the home page's system status (contracts: computeSystemStatus), gathered from where
 * each engine's health is known: the agent (firewall, guard, user, process, trojan and remote protection) and
 * the website gateway's admin socket, for the modules that are on. Each look-up that fails makes that module's health unknown; it
 * never fails the page. The mappings below are pure.
 */

const failing = (reason: EngineHealthReason): EngineHealth => ({ state: 'failing', reason });
const partly = (reason: EngineHealthReason): EngineHealth => ({ state: 'partly', reason });
const healthy: EngineHealth = { state: 'ok' };

/** The firewall: its ruleset in the kernel (`ok`), or why not. */
export function firewallHealth(status: FirewallStatus): EngineHealth {
  if (status.kernel === 'ok') return healthy;
  if (status.kernel === 'unavailable') return failing('firewall_unavailable');
  if (status.kernel === 'error') return failing('firewall_error');
  return failing('firewall_not_applied');
}

/** Tamper protection: the guard's helper on BPF LSM denies every operation; fanotify leaves gaps; no helper denies nothing. */
export function guardHealth(status: GuardStatus): EngineHealth {
  if (!status.running || status.backend === 'none') return failing('guard_not_running');
  if (status.backend === 'fanotify') return partly('guard_fanotify');
  if (status.missing_ops.length > 0) return partly('guard_missing_ops');
  return healthy;
}

/** User protection rides on the guard: the same backends, and its own notes of what is not enforced. */
export function accountHealth(status: AccountStatus): EngineHealth {
  if (status.backend === 'none') return failing('guard_not_running');
  if (status.backend === 'fanotify') return partly(status.notes.includes('account_fanotify_rename') ? 'account_rename_open' : 'guard_fanotify');
  return healthy;
}

/** Process protection: the guard for starts, the helper's network programs for connections. */
export function processHealth(status: ProcessStatus): EngineHealth {
  if (status.backend === 'none') return failing('guard_not_running');
  if (status.backend === 'fanotify') return partly('guard_fanotify');
  if (!status.net) return partly('process_net_off');
  return healthy;
}

/** Trojan protection: the real-time watch covers the protected directories; without it only scans protect. */
export function trojanHealth(status: TrojanStatus): EngineHealth {
  if (status.watch === 'watching') return healthy;
  if (status.watch === 'unavailable') return failing('trojan_watch_unavailable');
  return partly('trojan_watch_off');
}

/** Remote protection is enforced in the firewall's table: it needs the firewall on and sshd's port. */
export function remoteHealth(view: RemoteView, firewallOn: boolean): EngineHealth {
  if (view.enforced) return healthy;
  if (!firewallOn) return failing('remote_needs_firewall');
  if (view.sshd.ports.length === 0) return failing('remote_no_sshd');
  return failing('remote_not_enforced');
}

/** Website protection: the gateway answers on its admin socket, and at least one site is on and running. */
export function websiteHealth(answer: GatewayAnswer, protectedSites: number): EngineHealth {
  if (answer.state === 'not_running') return failing('gateway_not_running');
  const value = answer.state === 'answer' ? (answer.value as { ok?: unknown } | null) : null;
  if (value?.ok !== true) return { state: 'unknown', reason: 'gateway_unreachable' };
  if (protectedSites === 0) return failing('no_site_protected');
  return healthy;
}

const gatewayStatusTimeoutMs = 2000;

/** Asks each engine that is on how it is, side by side; a failed look-up is that module's unknown health. */
export async function gatherEngineHealth(ctx: ConsoleContext, gateway: GatewayPaths, modules: ModuleFlags): Promise<Partial<Record<ModuleKey, EngineHealth>>> {
  const unknown: EngineHealth = { state: 'unknown', reason: 'status_unavailable' };
  const ask = async (module: ModuleKey, look: () => Promise<EngineHealth>): Promise<[ModuleKey, EngineHealth] | null> => {
    if (modules[module] !== 1) return null;
    try {
      return [module, await look()];
    } catch {
      return [module, unknown];
    }
  };
  const entries = await Promise.all([
    ask('firewall', async () => firewallHealth(await ctx.agent.call('firewall.status', {}))),
    ask('tamper', async () => guardHealth(await ctx.agent.call('tamper.status', {}))),
    ask('account', async () => accountHealth(await ctx.agent.call('account.status', {}))),
    ask('process', async () => processHealth(await ctx.agent.call('process.status', {}))),
    ask('trojan', async () => trojanHealth(await ctx.agent.call('trojan.status', {}))),
    ask('remote', async () => remoteHealth(await ctx.agent.call('remote.get', {}), modules.firewall === 1)),
    ask('website', async () =>
      websiteHealth(await askGateway(gateway.adminSocket, 'status', { timeoutMs: gatewayStatusTimeoutMs, maxBytes: 65_536 }), countProtectedSites(ctx.db))),
  ]);
  return Object.fromEntries(entries.filter((entry) => entry !== null));
}
