import type { HostInfo } from '@rampart/contracts';
import type { AgentPort } from '../context.ts';

/**
 * Host info from the agent, cached briefly: /info is called on every page load and the OS does
 * not change between them. A failed call is not cached.
 */
export function hostFacts(agent: AgentPort, now: () => number, ttlMs = 10_000) {
  let cached: { at: number; info: HostInfo } | undefined;
  return async (fresh = false): Promise<HostInfo | null> => {
    if (!fresh && cached && now() - cached.at < ttlMs) return cached.info;
    try {
      const info = await agent.call('host.info', {});
      cached = { at: now(), info };
      return info;
    } catch {
      return null;
    }
  };
}
export type HostFacts = ReturnType<typeof hostFacts>;
