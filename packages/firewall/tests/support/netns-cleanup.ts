import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { creatorPid } from './lab-names.ts';

/**
 * Synchronous on purpose: the same code runs from `lab.destroy()`, from the process 'exit' hook
 * (where nothing async runs any more) and from the sweep of dead runs' leftovers.
 */

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** SIGKILLs every process still in the namespace (daemons, ssh clients...), then deletes it. */
export function removeNamespace(name: string): void {
  const pids = spawnSync('ip', ['netns', 'pids', name], { encoding: 'utf8' }).stdout ?? '';
  for (const pid of pids.split(/\s+/).filter(Boolean).map(Number)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  // A namespace that still holds a process would outlive its name; the kills above prevent that.
  spawnSync('ip', ['netns', 'delete', name], { stdio: 'ignore' });
}

const live = new Set<string>();
let exitHookInstalled = false;

/** Remembers a namespace until `forget`, so a test process that exits without destroy still removes it. */
export function track(name: string): void {
  live.add(name);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const leftover of live) removeNamespace(leftover);
  });
}

export function forget(name: string): void {
  live.delete(name);
}

/** Removes lab namespaces whose creating process is dead (a worker killed mid-run cannot clean up). */
export function sweepDeadRuns(): void {
  let names: string[];
  try {
    names = readdirSync('/run/netns');
  } catch {
    return;
  }
  for (const name of names) {
    const pid = creatorPid(name);
    if (pid !== undefined && !isAlive(pid)) removeNamespace(name);
  }
}
