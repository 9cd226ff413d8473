import type { CompiledPolicy } from './compile.ts';

/** Alert area (base tab): `all` alerts on every block; `unknown` only when the geo-IP data can't place the client. */
export function shouldAlert(policy: CompiledPolicy, clientAreas: readonly string[]): boolean {
  const alert = policy.settings.base.alert;
  if (!alert.enabled || alert.methods.length === 0) return false;
  return alert.area === 'all' || clientAreas.length === 0;
}

/** Bytes of a request kept in its snapshot (0 = all of it); null when snapshots are off. */
export function snapshotBytes(policy: CompiledPolicy): number | null {
  return policy.settings.base.snapshot.enabled ? policy.settings.request.limits.snapshot_bytes : null;
}
