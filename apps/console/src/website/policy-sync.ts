import { readFileSync } from 'node:fs';
import { gatewayConfigSchema, type GatewayConfig } from '@rampart/contracts';
import { reloadGateway, writeGatewayConfig } from './gateway-link.ts';
import { activeTimed } from './timed-store.ts';
import { desiredGatewayConfig, type WebsiteLink } from './website-link.ts';

export type PolicySync =
  /** The file already says what the state says. */
  | 'unchanged'
  /** Only the timed lists moved: the file is rewritten, the running gateway (which holds them live) is not reloaded. */
  | 'timed_only'
  /** Anything else moved (super whitelist, common areas, module switch, protection, a previous build's file): written and reloaded. */
  | 'reloaded'
  /** The agent did not answer: nothing is rewritten from stale inputs. */
  | 'agent_away'
  /** The state leads to a file the gateway schema refuses (told in `reason`); the old file stays. */
  | 'invalid';

/** The file as it is, or null when there is none or it is not JSON. */
function currentFile(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return null;
  }
}

const withoutTimed = (config: unknown): string => {
  const c = config as { policy?: { timed?: unknown } } | null;
  return JSON.stringify(c?.policy ? { ...c, policy: { ...c.policy, timed: null } } : c);
};

/**
 * The policy check: builds the configuration the whole state leads to now and compares it with the
 * file. Run two ways: at once by the routes that change a part of the policy outside the website
 * routes (module switch, protection, super whitelist, common areas: services/policy-signal.ts), so
 * their effect does not wait; and every few seconds (gateway-events.ts) as the safety net, since the
 * policy also changes without any console route — the super whitelist grows at panel sign-in (auto
 * add) and by the trust-terminal software and loses entries when they end, a temporary protection
 * pause ends on the agent's timer. Runs one at a time with the website changes (link.serial).
 * Comparing with the file (not a remembered fingerprint) also makes a console restart or a file
 * from an older build converge, and a refused reload is not retried in a loop: the file already
 * matches. `timedWrites` false leaves a timed-only difference for a later call (they are frequent
 * under attack and only matter to a gateway that starts; a reload always writes them fresh).
 */
export function syncGatewayPolicy(link: WebsiteLink, options: { timedWrites: boolean }): Promise<{ outcome: PolicySync; reason?: string }> {
  return link.serial(() => syncNow(link, options));
}

async function syncNow(link: WebsiteLink, options: { timedWrites: boolean }): Promise<{ outcome: PolicySync; reason?: string }> {
  const inputs = await link.agentInputs.refresh(link.ctx.now());
  if (!inputs) return { outcome: 'agent_away' };
  const built = desiredGatewayConfig(link, inputs);
  if (!built.ok) return { outcome: 'invalid', reason: built.reason };
  const file = link.paths.configFile;
  const current = currentFile(file);
  const next: GatewayConfig = built.config;
  // Both sides through JSON: the file holds the same keys in the same order when nothing changed.
  if (current !== null && JSON.stringify(current) === JSON.stringify(next)) return { outcome: 'unchanged' };
  const timedOnly = current !== null && withoutTimed(current) === withoutTimed(next);
  if (timedOnly && !options.timedWrites) return { outcome: 'unchanged' };
  writeGatewayConfig(file, next);
  if (timedOnly) return { outcome: 'timed_only' };
  const report = await reloadGateway(link.paths.adminSocket);
  return report.state === 'refused' || report.state === 'unreachable' ? { outcome: 'reloaded', reason: report.reason ?? '' } : { outcome: 'reloaded' };
}

/**
 * After a change of the timed lists by hand: the file's lists only, nothing else of it (a change
 * of the rest is the periodic check's to find and reload), so a gateway that starts later starts
 * with them. No file with a policy yet: nothing to do, the next check writes the whole file.
 */
export function rewriteTimedLists(link: WebsiteLink): void {
  const parsed = gatewayConfigSchema.safeParse(currentFile(link.paths.configFile));
  if (!parsed.success || !parsed.data.policy) return;
  writeGatewayConfig(link.paths.configFile, { ...parsed.data, policy: { ...parsed.data.policy, timed: activeTimed(link.ctx.db, link.ctx.now()) } });
}
