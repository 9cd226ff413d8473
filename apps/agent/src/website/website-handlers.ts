import type { AgentResult } from '@rampart/contracts';
import { discoveredSites, type DiscoveryCommands } from './discovered-sites.ts';

/** The website protection's agent calls (contracts: website-agent.ts). */
export function websiteHandlers(commands: DiscoveryCommands = {}) {
  return {
    'website.discover': async (): Promise<AgentResult<'website.discover'>> => ({ sites: await discoveredSites(commands) }),
  };
}
