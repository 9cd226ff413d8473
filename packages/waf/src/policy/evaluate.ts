import type { Decision } from '../types.ts';
import type { CompiledPolicy } from './compile.ts';
import type { RequestFacts } from './facts.ts';
import { checkFileType, checkUploads } from './file-types.ts';
import { checkHotlink } from './hotlink.ts';
import { checkBlockKeywords } from './keywords.ts';
import { evaluateLists, type TimedLists } from './lists.ts';
import { checkHeaderRules, checkLimits, checkMethod } from './request-limits.ts';
import { checkTimeLimits } from './time-limit.ts';

/**
 * The stateless request checks after the lists, cheapest and most basic first: the protocol-level
 * refusals (method, sizes, headers), then access rules (time limits, file types, uploads,
 * hotlinking), then the block keyword library. CC counting is stateful: the gateway, which counts
 * across its workers, runs it after this; the record library runs last, when nothing else decided.
 */
export const requestChecks: readonly ((policy: CompiledPolicy, facts: RequestFacts) => Decision | null)[] = [
  checkMethod,
  checkLimits,
  checkHeaderRules,
  checkTimeLimits,
  checkFileType,
  checkUploads,
  checkHotlink,
  (policy, facts) => checkBlockKeywords(policy.keywords, facts),
];

/** Lists, then the request checks: 'allow' skips everything else, a Decision stops, null goes on to detection. */
export function evaluateRequestPolicy(policy: CompiledPolicy, facts: RequestFacts, timed: TimedLists): 'allow' | Decision | null {
  const listed = evaluateLists(policy, facts, timed);
  if (listed !== null) return listed;
  for (const check of requestChecks) {
    const decision = check(policy, facts);
    if (decision) return decision;
  }
  return null;
}
