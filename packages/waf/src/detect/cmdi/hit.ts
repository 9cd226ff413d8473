import type { DetectorHit } from '../../types.ts';

/** A command-injection finding, its evidence cut to what the event log shows. */
export function hit(rule: string, evidence: string, severity: 1 | 2): DetectorHit {
  return { kind: 'cmdi', rule, evidence: evidence.slice(0, 120), severity };
}
