/**
 * A signal is one thing the analysis saw, with a weight; findings are what the user reads. Weights
 * are chosen so that one weak signal never flags a file: benign frameworks eval constants, run fixed
 * commands and base64-decode data every day. Only a strong signal (user input or decoded data
 * reaching a sink) or several different weaker ones together make a web shell.
 */
import type { WebshellFinding, WebshellReason, WebshellRisk } from '@rampart/contracts';
import { webshellEvidenceMax } from '@rampart/contracts';

export interface Signal { reason: WebshellReason; weight: number; offset: number; length: number }

/** Strong: a web shell on its own. */
export const strong = 10;
/** Medium: suspicious; flags a file only together with another signal, unless it is the file's whole point. */
export const medium = 5;
/** Weak: something benign code also does; never flags alone. */
export const weak = 2;

const highAt = 10;
const mediumAt = 6;

export function riskOfScore(score: number): WebshellRisk {
  if (score >= highAt) return 'high';
  if (score >= mediumAt) return 'medium';
  return score > 0 ? 'low' : 'none';
}

const riskOrder: Record<WebshellRisk, number> = { none: 0, low: 1, medium: 2, high: 3 };
export const maxRisk = (a: WebshellRisk, b: WebshellRisk): WebshellRisk => (riskOrder[a] >= riskOrder[b] ? a : b);
export const riskRank = (risk: WebshellRisk): number => riskOrder[risk];

/** The bytes at a signal's place, as text, cut to the evidence limit. */
export function evidenceAt(bytes: Buffer, offset: number, length: number): string {
  const slice = bytes.subarray(offset, offset + Math.min(length, webshellEvidenceMax * 4));
  const text = slice.toString('utf8').replace(/\s+/g, ' ').trim();
  return text.length > webshellEvidenceMax ? text.slice(0, webshellEvidenceMax - 1) + '…' : text;
}

/**
 * Signals → findings: one finding per reason (its heaviest signal). The file's score is the sum over
 * distinct reasons, so repeating one weak thing a hundred times is still one weak thing. When
 * different signals together reach a level none reaches alone, each of them is lifted to that level:
 * together they are the evidence, and the file's verdict stays "the strongest finding".
 */
export function findingsOfSignals(signals: readonly Signal[], bytes: Buffer): WebshellFinding[] {
  const best = new Map<WebshellReason, Signal>();
  for (const signal of signals) {
    const seen = best.get(signal.reason);
    if (!seen || signal.weight > seen.weight) best.set(signal.reason, signal);
  }
  const chosen = [...best.values()].sort((a, b) => b.weight - a.weight || a.offset - b.offset);
  const combined = riskOfScore(chosen.reduce((sum, signal) => sum + signal.weight, 0));
  return chosen.map((signal) => {
    const own = riskOfScore(signal.weight);
    return {
      source: 'analysis' as const,
      reason: signal.reason,
      risk: own === 'none' ? own : maxRisk(own, combined),
      evidence: evidenceAt(bytes, signal.offset, signal.length),
      offset: signal.offset,
      length: signal.length,
    };
  });
}
