import type { AuditCheckResult, ModuleFlags } from '@rampart/contracts';
import type { AuditCheck, Verdict } from './checks/check.ts';
import { allChecks } from './checks/catalogue.ts';
import { sysctlKeys } from './checks/sysctl.ts';
import type { Executor } from './executor.ts';
import { gatherFacts, type FactName, type Facts } from './facts/facts.ts';
import { summarize } from './score.ts';

/**
 * An audit run: gather the facts once, then judge every check against them. Judging is pure and
 * takes milliseconds; the time goes into the collectors' commands.
 */
export interface AuditProgress {
  done: number;
  total: number;
  checkId: string;
}

export function judge(check: AuditCheck, facts: Facts): AuditCheckResult {
  const missing = check.uses.filter((name: FactName) => facts.errors[name] !== undefined);
  let verdict: Verdict;
  if (missing.length > 0) verdict = { outcome: 'error', evidence: missing.map((name) => ({ note: `${name}: ${facts.errors[name]}` })) };
  else {
    try {
      verdict = check.run(facts);
    } catch (error) {
      verdict = { outcome: 'error', evidence: [{ note: error instanceof Error ? error.message : String(error) }] };
    }
  }
  return { id: check.id, category: check.category, level: check.level, outcome: verdict.outcome, evidence: verdict.evidence, fixable: verdict.outcome === 'fail' && check.fix !== undefined };
}

export function judgeAll(facts: Facts, checks: readonly AuditCheck[] = allChecks, onProgress?: (p: AuditProgress) => void): AuditCheckResult[] {
  return checks.map((check, i) => {
    const result = judge(check, facts);
    onProgress?.({ done: i + 1, total: checks.length, checkId: check.id });
    return result;
  });
}

export interface AuditOptions {
  /** `/` in production; a temp dir or a debootstrapped root in tests. */
  root: string;
  exec: Executor;
  moduleFlags?: ModuleFlags;
  checks?: readonly AuditCheck[];
  skip?: readonly FactName[];
  onProgress?: (p: AuditProgress) => void;
  now?: () => number;
}

export async function runAudit(options: AuditOptions) {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const t0 = performance.now();
  const facts = await gatherFacts({ root: options.root, exec: options.exec, moduleFlags: options.moduleFlags, sysctlKeys, skip: options.skip });
  const results = judgeAll(facts, options.checks, options.onProgress);
  return { summary: summarize(results, startedAt, Math.round(performance.now() - t0)), facts };
}
