import type { AttackKind, DetectorHit, InputLocation } from '../types.ts';

/** A request-level finding: a detector hit plus where in the request it was seen. */
export interface ProtocolHit extends DetectorHit {
  location: InputLocation;
  name: string;
}

export function protocolHit(
  rule: string,
  severity: 1 | 2,
  where: { location: InputLocation; name?: string },
  evidence: string,
  kind: AttackKind = 'protocol',
): ProtocolHit {
  return { kind, rule, severity, evidence: evidence.slice(0, 120), location: where.location, name: where.name ?? '' };
}

/** The hit to report from a family: the first clear one, else the first suspicious one. */
export function strongest(hits: readonly (ProtocolHit | null)[]): ProtocolHit | null {
  let first: ProtocolHit | null = null;
  for (const h of hits) {
    if (h === null) continue;
    if (h.severity === 2) return h;
    first ??= h;
  }
  return first;
}
