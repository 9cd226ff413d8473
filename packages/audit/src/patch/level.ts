import type { PatchLevel } from '@rampart/contracts';

/** A security origin ("…-security" suite or label) is important; with a critical or emergency changelog urgency, emergency. */
export function patchLevel(origins: readonly string[], urgency: string | null): PatchLevel {
  const security = origins.some((origin) => /-security\b/i.test(origin));
  if (!security) return 'optional';
  return urgency === 'critical' || urgency === 'emergency' ? 'emergency' : 'important';
}
