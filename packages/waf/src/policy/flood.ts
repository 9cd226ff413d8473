import type { WebsiteInterceptEntry } from '@rampart/contracts';
import type { Decision } from '../types.ts';
import type { CompiledPolicy } from './compile.ts';
import { createMinuteCounter, recordRequest, resetClient, type MinuteCounter } from './counters.ts';
import type { RequestFacts } from './facts.ts';

/** The gateway's in-memory counters for one site; rebuilt (emptied) when the thresholds change. */
export interface FloodState {
  cc: MinuteCounter;
  notFound: MinuteCounter;
}

export function createFloodState(policy: CompiledPolicy): FloodState {
  return { cc: createMinuteCounter(policy.settings.protect.cc.per_minute), notFound: createMinuteCounter(policy.settings.protect.scan_404.per_minute) };
}

/** What a check wants done besides its decision: an entry for the interception list. */
export interface FloodOutcome {
  decision: Decision;
  intercept: WebsiteInterceptEntry | null;
}

/**
 * CC protection, on every request that got past the lists. More than `per_minute` requests in a
 * minute from one address: loose mode asks for human verification (redirect or click, the
 * gateway's page; a client holding the verified pass is let by), strict mode blocks and puts the
 * address on the interception list for `block_minutes`.
 */
export function checkCc(policy: CompiledPolicy, state: FloodState, facts: RequestFacts): FloodOutcome | null {
  const cc = policy.settings.protect.cc;
  if (!cc.enabled) return null;
  if (!recordRequest(state.cc, facts.clientIp, facts.now)) return null;
  if (cc.mode === 'loose') {
    return facts.verifiedHuman ? null : { decision: { action: 'challenge', rule: `protect.cc.${cc.verification}` }, intercept: null };
  }
  resetClient(state.cc, facts.clientIp);
  return {
    decision: { action: 'block', rule: 'protect.cc', kind: 'policy' },
    intercept: { ip: facts.clientIp, reason: 'cc', created_at: facts.now, detail: `> ${cc.per_minute}/min`, expires_at: facts.now + cc.block_minutes * 60_000 },
  };
}

/**
 * 404 scan, on each response: more than `per_minute` 404 answers to one address in a minute puts
 * it on the interception list (its next requests are refused by the list).
 */
export function record404(policy: CompiledPolicy, state: FloodState, ip: string, status: number, now: number): WebsiteInterceptEntry | null {
  const scan = policy.settings.protect.scan_404;
  if (!scan.enabled || status !== 404) return null;
  if (!recordRequest(state.notFound, ip, now)) return null;
  resetClient(state.notFound, ip);
  return { ip, reason: 'scan_404', created_at: now, detail: `> ${scan.per_minute} 404/min`, expires_at: now + scan.block_minutes * 60_000 };
}
