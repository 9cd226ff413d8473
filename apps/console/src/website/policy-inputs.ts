import { readFileSync } from 'node:fs';
import type { TrojanLibrary } from '@rampart/contracts';
import type { AgentPort } from '../context.ts';

/** The parts of the gateway policy the agent owns: the super whitelist, the common areas, system protection, the trojan custom library. */
export interface AgentPolicyInputs {
  /** Entries of the super whitelist active now. */
  super_whitelist: string[];
  common_areas: { id: number; members: string[] }[];
  protection_on: boolean;
  /** The trojan module's custom library (rule text and hash lines as stored), for the gateway's upload scan. */
  custom_library: TrojanLibrary;
}

const noLibrary: TrojanLibrary = { rules: '', hashes: [] };

/* The gateway schema's own ceilings (website-gateway.ts): past them the file would be refused. */
const maxWhitelist = 200_000;
const maxAreas = 10_000;
const whitelistPage = 50_000;
const areasPage = 1000;
const callTimeoutMs = 3000;

/** Reads them from the agent; throws when the agent is away. */
export async function readAgentPolicyInputs(agent: AgentPort, now: number): Promise<AgentPolicyInputs> {
  const options = { timeoutMs: callTimeoutMs };
  const superWhitelist: string[] = [];
  for (let offset = 0; offset < maxWhitelist; offset += whitelistPage) {
    const page = await agent.call('trust.list', { offset, limit: whitelistPage }, options);
    for (const entry of page.list) if (entry.expires_at === null || entry.expires_at > now) superWhitelist.push(entry.address);
    if (offset + whitelistPage >= page.total || page.list.length === 0) break;
  }
  const areas: { id: number; members: string[] }[] = [];
  for (let offset = 0; offset < maxAreas; offset += areasPage) {
    const page = await agent.call('areas.list', { offset, limit: areasPage }, options);
    areas.push(...page.list.map((area) => ({ id: area.id, members: area.members })));
    if (offset + areasPage >= page.total || page.list.length === 0) break;
  }
  const protection = await agent.call('protection.get', {}, options);
  const library = await agent.call('trojan.library.get', {}, options);
  // A temporary disable whose time is up counts as on, as the dashboard shows it (services/protection.ts).
  const protectionOn = protection.mode === 'on' || (protection.mode === 'temp_off' && protection.until !== null && protection.until <= now);
  // Sorted: the list's page order (newest first) must not make an unchanged list look changed.
  return { super_whitelist: superWhitelist.slice(0, maxWhitelist).sort(), common_areas: areas.sort((a, b) => a.id - b.id), protection_on: protectionOn, custom_library: { rules: library.rules, hashes: library.hashes } };
}

/**
 * The last inputs the agent gave. A change saved while the agent is away still needs them: then the
 * last answer stands, else what the current gateway file carries (the last answer of a previous
 * run), else nothing — an empty whitelist, no areas, protection on; the periodic check
 * (gateway-events.ts) puts the real ones in as soon as the agent answers.
 */
export class AgentInputsCache {
  private last: AgentPolicyInputs | null = null;
  private readonly agent: AgentPort;
  private readonly configFile: string;

  constructor(agent: AgentPort, configFile: string) {
    this.agent = agent;
    this.configFile = configFile;
  }

  /** Fresh inputs, or null when the agent did not answer (the cache stays as it was). */
  async refresh(now: number): Promise<AgentPolicyInputs | null> {
    try {
      this.last = await readAgentPolicyInputs(this.agent, now);
      return this.last;
    } catch {
      return null;
    }
  }

  /** Fresh when the agent answers, else the best known. */
  async current(now: number): Promise<AgentPolicyInputs> {
    return (await this.refresh(now)) ?? this.last ?? this.fromFile();
  }

  private fromFile(): AgentPolicyInputs {
    try {
      const policy = (JSON.parse(readFileSync(this.configFile, 'utf8')) as { policy?: Partial<AgentPolicyInputs> }).policy;
      return { super_whitelist: policy?.super_whitelist ?? [], common_areas: policy?.common_areas ?? [], protection_on: true, custom_library: policy?.custom_library ?? noLibrary };
    } catch {
      return { super_whitelist: [], common_areas: [], protection_on: true, custom_library: noLibrary };
    }
  }
}
