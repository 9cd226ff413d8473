import { access, constants } from 'node:fs/promises';
import path from 'node:path';
import type { KernelStatus } from '@rampart/contracts';

/** Where Debian and most distributions install nft; PATH is not trusted for a root daemon. */
export const nftSearchDirs: readonly string[] = ['/usr/sbin', '/sbin', '/usr/bin', '/bin'];

export async function findExecutable(name: string, dirs: readonly string[] = nftSearchDirs): Promise<string | undefined> {
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; try the next directory
    }
  }
  return undefined;
}

export interface KernelFacts {
  euid: number;
  nftPath: string | undefined;
  os: string;
  kernel: string;
  /** The guard's causes while tamper protection is on (`guard_lsm_refused`, `guard_helper_missing`, ...). */
  guardCauses?: readonly string[];
}

/** Cause codes are locale keys under `kernel_cause.` in the console. */
export function kernelStatusFrom(facts: KernelFacts): KernelStatus {
  const causes: string[] = [];
  if (facts.euid !== 0) causes.push('not_root');
  if (!facts.nftPath) causes.push('nft_missing');
  for (const cause of facts.guardCauses ?? []) if (!causes.includes(cause)) causes.push(cause);
  return { status: causes.length ? 'abnormal' : 'normal', os: facts.os, kernel: facts.kernel, causes };
}

export function effectiveUid(): number {
  return typeof process.geteuid === 'function' ? process.geteuid() : -1;
}
