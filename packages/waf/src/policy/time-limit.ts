import type { Decision } from '../types.ts';
import type { CompiledPolicy } from './compile.ts';
import { decodedUrl, type RequestFacts } from './facts.ts';

/** Is the minute of day inside a window [start, end)? */
export function inWindow(minuteOfDay: number, window: { start: number; end: number }): boolean {
  return minuteOfDay >= window.start && minuteOfDay < window.end;
}

/**
 * Time-limited access: a protected URL (partial match, any case) is open during its authorized
 * windows; outside them it is refused. When the authorization password is set, the refusal is a
 * challenge with rule `protect.authorization`: the gateway shows the password form, and a right
 * password puts the address on the authorization list, which the lists let through before this
 * check runs.
 */
export function checkTimeLimits(policy: CompiledPolicy, facts: RequestFacts): Decision | null {
  if (policy.timeLimits.length === 0) return null;
  const url = decodedUrl(facts).toLowerCase();
  for (const rule of policy.timeLimits) {
    if (!url.includes(rule.url)) continue;
    if (rule.windows.some((w) => inWindow(facts.minuteOfDay, w))) continue;
    const auth = policy.settings.protect.authorization;
    return auth.enabled && auth.password_hash !== ''
      ? { action: 'challenge', rule: 'protect.authorization' }
      : { action: 'block', rule: 'protect.time_limit', kind: 'policy', evidence: rule.url };
  }
  return null;
}
