import type { DetectorHit } from '../../types.ts';

/** A hit of the server-side JavaScript detectors, evidence around `at`. */
export function hit(rule: string, text: string, at: number, severity: 1 | 2): DetectorHit {
  return { kind: 'cmdi', rule, evidence: text.slice(Math.max(0, at - 10), at + 110).slice(0, 120), severity };
}
