import { moduleKeys, type ModuleKey } from '@rampart/contracts';
import type { ConsoleContext } from '../context.ts';
import { getModuleFlags } from '../db/modules.ts';

/**
 * Makes the agent's module flags match the console's desired state. Runs at start and then
 * periodically, so a switch saved while the agent was away takes effect when it is back.
 */
export async function reconcileModules(ctx: ConsoleContext): Promise<'in_sync' | 'pushed' | 'agent_unreachable'> {
  const desired = getModuleFlags(ctx.db);
  let actual;
  try {
    actual = await ctx.agent.call('module.list', {});
  } catch {
    return 'agent_unreachable';
  }
  const differing = moduleKeys.filter((k) => actual[k] !== desired[k]);
  if (differing.length === 0) return 'in_sync';
  for (const status of [0, 1] as const) {
    const modules: ModuleKey[] = differing.filter((k) => desired[k] === status);
    if (modules.length > 0) await ctx.agent.call('module.switch', { modules, status }).catch(() => undefined);
  }
  return 'pushed';
}

export function startModuleReconciler(ctx: ConsoleContext, intervalMs = 30_000): () => void {
  void reconcileModules(ctx);
  const timer = setInterval(() => void reconcileModules(ctx), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
