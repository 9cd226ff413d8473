import path from 'node:path';
import { hostResolveRoots, type ResolveRoots } from '@rampart/guard';
import { effectiveUid } from '../host/kernel-status.ts';
import { GuardService, type GuardSinks } from './guard-service.ts';

/** The repository (install) root: four levels up from this file. */
const installDir = path.resolve(import.meta.dirname, '../../../..');

/**
 * What deploy/ puts outside the data and install dirs: the units install.sh copies, the console's
 * environment file's dir, the units' runtime dirs (the agent's and the helper's sockets) and the
 * helper's pinned BPF links. A rule over /etc or / must not deny them, or Rampart could neither
 * start nor be repaired from its own console.
 */
export const deployedSelfPaths: readonly string[] = [
  '/etc/systemd/system/rampart.target',
  '/etc/systemd/system/rampart-agent.service',
  '/etc/systemd/system/rampart-console.service',
  '/etc/systemd/system/rampart-guard.service',
  '/etc/rampart',
  '/run/rampart',
  '/run/rampart-guard',
  '/sys/fs/bpf/rampart',
];

/**
 * Rampart's own paths, always allowed: the agent's state, the whole data dir (RAMPART_DATA_DIR,
 * resolved as the agent's config does; it holds the console's database too), the install dir and
 * what deploy/ installs. Paths that do not exist are skipped by the planner.
 */
export function rampartSelfPaths(stateDir: string, env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  const dataDir = env['RAMPART_DATA_DIR'];
  return [...new Set([stateDir, ...(dataDir ? [path.resolve(dataDir)] : []), installDir, ...deployedSelfPaths])];
}

export interface GuardOptions {
  /** The helper's socket; default RAMPART_GUARD_SOCKET (systemd runs the helper at /run/rampart-guard/guard.sock), else `<state>/guard.sock`. */
  socketPath?: string;
  /** Default: the repository's `apps/guard/build/rampart-guard`. */
  binary?: string;
  /** Passed after `--socket PATH` (e.g. `--backend fanotify`). */
  args?: string[];
  /** Start the helper when nothing serves the socket (default true; tests without a helper say false). */
  spawn?: boolean;
  /** Where executables are looked for (tests: temp dirs). */
  roots?: ResolveRoots;
  /** Rampart's own paths; default rampartSelfPaths(stateDir). */
  selfPaths?: string[];
  background?: boolean;
  checkIntervalMs?: number;
  /** Taken as root or not (default: the effective uid). */
  isRoot?: boolean;
  client?: { backoff?: { minMs: number; maxMs: number }; timeoutMs?: number };
  helperBackoff?: { minMs: number; maxMs: number };
  /** System protection is paused at start. */
  paused?: boolean;
  now?: () => number;
}

export async function openGuard(stateDir: string, enabled: boolean, sinks: GuardSinks, log: (line: string) => void, options: GuardOptions = {}): Promise<GuardService> {
  const service = new GuardService({
    stateDir,
    log,
    sinks,
    enabled,
    paused: options.paused ?? false,
    isRoot: options.isRoot ?? effectiveUid() === 0,
    helper: {
      spawn: options.spawn ?? true,
      socketPath: options.socketPath ?? (process.env['RAMPART_GUARD_SOCKET'] || path.join(stateDir, 'guard.sock')),
      binary: options.binary ?? path.join(installDir, 'apps/guard/build/rampart-guard'),
      args: options.args ?? [],
      backoff: options.helperBackoff,
    },
    selfPaths: options.selfPaths ?? rampartSelfPaths(stateDir),
    roots: options.roots ?? hostResolveRoots,
    background: options.background,
    checkIntervalMs: options.checkIntervalMs,
    client: options.client,
    now: options.now,
  });
  await service.start();
  return service;
}
