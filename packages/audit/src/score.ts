import type { AuditCheckResult, AuditLevel, AuditSummary } from '@rampart/contracts';

/**
 * The score: the share of the applicable checks' weight that passed. A danger weighs as much as
 * three warnings or nine hints, so one open danger costs more than a handful of hints. Checks that
 * do not apply or could not run leave the denominator: the score judges what was seen.
 */
export const levelWeights: Record<AuditLevel, number> = { hint: 1, warning: 3, danger: 9 };

export function score(results: readonly AuditCheckResult[]): number {
  let total = 0;
  let passed = 0;
  for (const r of results) {
    if (r.outcome !== 'pass' && r.outcome !== 'fail') continue;
    total += levelWeights[r.level];
    if (r.outcome === 'pass') passed += levelWeights[r.level];
  }
  return total === 0 ? 100 : Math.floor((100 * passed) / total);
}

export function summarize(results: AuditCheckResult[], startedAt: number, durationMs: number): AuditSummary {
  const counts = { pass: 0, fail: 0, not_applicable: 0, error: 0 };
  const failedByLevel = { hint: 0, warning: 0, danger: 0 };
  for (const r of results) {
    counts[r.outcome]++;
    if (r.outcome === 'fail') failedByLevel[r.level]++;
  }
  return { startedAt, durationMs, score: score(results), counts, failedByLevel, results };
}
