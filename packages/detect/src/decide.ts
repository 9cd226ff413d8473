import type { Decision, Overflow, PipelineEvent } from './event.ts';
import type { Scenario } from './scenarios/schema.ts';

export interface DeciderOptions {
  /** The super whitelist, the firewall whitelist, loopback: addresses never to block. */
  isExempt: (ip: string) => boolean;
  /** What the firewall already blocks (the interception list), if the caller can tell. */
  isBlocked?: (ip: string) => boolean;
}

export interface DeciderStats {
  decisions: number;
  exempt: number;
  alreadyBlocked: number;
}

export interface Decider {
  /** The decide stage: one decision for an overflow, or none for an exempt or already blocked address. */
  decide(event: PipelineEvent, overflow: Overflow, scenario: Scenario): Decision | undefined;
  /** Lifts the memory of a block (an administrator released the address early). */
  release(ip: string): void;
  stats(): DeciderStats;
}

export function createDecider(options: DeciderOptions): Decider {
  // Address → end of the block this decider ordered; so one block per address until it runs out.
  const blockedUntil = new Map<string, number>();
  const counts: DeciderStats = { decisions: 0, exempt: 0, alreadyBlocked: 0 };
  let sweptAt = 0;

  // Ended blocks are forgotten now and then; the map only holds blocks still running.
  const sweep = (now: number) => {
    if (now - sweptAt < 60_000 && blockedUntil.size < 10_000) return;
    sweptAt = now;
    for (const [ip, until] of blockedUntil) if (until <= now) blockedUntil.delete(ip);
  };

  return {
    decide(event, overflow, scenario) {
      const ip = event.parsed?.ip;
      if (ip === undefined) return undefined;
      if (options.isExempt(ip)) {
        counts.exempt++;
        return undefined;
      }
      sweep(event.time);
      const until = blockedUntil.get(ip);
      // When the firewall can tell, it is the truth: an address the administrator unblocked early is
      // blocked again by the next attack. Without it, this decider's own memory stands in.
      const blocked = options.isBlocked ? options.isBlocked(ip) : until !== undefined && until > event.time;
      if (blocked) {
        counts.alreadyBlocked++;
        return undefined;
      }
      const minutes = scenario.decision.duration_minutes;
      const decision: Decision = {
        action: scenario.decision.action,
        ip,
        scenario: scenario.name,
        reason: scenario.decision.reason,
        durationMinutes: minutes,
        time: event.time,
        until: event.time + minutes * 60_000,
        count: overflow.count,
        source: event.source,
      };
      if (!options.isBlocked) blockedUntil.set(ip, decision.until);
      counts.decisions++;
      return decision;
    },
    release: (ip) => void blockedUntil.delete(ip),
    stats: () => ({ ...counts }),
  };
}
