import path from 'node:path';
import { hostResolveRoots, type ResolveRoots } from '@rampart/guard';
import { effectiveUid } from '../host/kernel-status.ts';
import { GuardService, type GuardSinks } from './guard-service.ts';

/** The repository (install) root: four levels up from this file. */
const installDir = path.resolve(import.meta.dirname, '../../../..');

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
  /** Rampart's own directories; default the state dir and the install dir. */
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
    selfPaths: options.selfPaths ?? [stateDir, installDir],
    roots: options.roots ?? hostResolveRoots,
    background: options.background,
    checkIntervalMs: options.checkIntervalMs,
    client: options.client,
    now: options.now,
  });
  await service.start();
  return service;
}
