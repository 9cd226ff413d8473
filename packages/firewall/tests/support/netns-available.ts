import { spawnSync } from 'node:child_process';
import { NAMESPACE_PREFIX } from './lab-names.ts';

let usable: boolean | undefined;

/** Root, and `ip netns add` works (not in every container): for `describe.skipIf(!canUseNetns())`. */
export function canUseNetns(): boolean {
  if (usable !== undefined) return usable;
  usable = false;
  if (process.getuid?.() !== 0) return usable;
  // Named like a lab namespace, so a leftover from a killed process is swept like one.
  const name = `${NAMESPACE_PREFIX}${process.pid}-check`;
  usable = spawnSync('ip', ['netns', 'add', name], { stdio: 'ignore' }).status === 0;
  spawnSync('ip', ['netns', 'delete', name], { stdio: 'ignore' });
  return usable;
}
