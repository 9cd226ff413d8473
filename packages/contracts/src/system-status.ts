import { z } from 'zod';
import { moduleKeys, moduleKeySchema, modulesInBuild, type ModuleFlags, type ModuleKey } from './modules.ts';

/*
 * The home page's system status, computed rather than taken from the protection switch alone:
 * "protected" only while system protection is on, at least one module of this build is on and every
 * module that is on is enforced by a healthy engine. Otherwise it is "degraded" or "unprotected"
 * and says which modules are off and which are on but failing, partly enforced or of unknown health,
 * each with a short reason key (the web's texts: `dashboard.status_reason.<key>`, both languages).
 */

/** How well one engine enforces its module: fully, partly (a fallback that leaves gaps), not at all, or not known (no answer). */
export const engineHealthStates = ['ok', 'partly', 'failing', 'unknown'] as const;
export type EngineHealthState = (typeof engineHealthStates)[number];

/** Why an engine is not fully healthy. Locale keys under `dashboard.status_reason.` in the web. */
export const engineHealthReasons = [
  // firewall (agent `firewall.status`)
  'firewall_unavailable', 'firewall_error', 'firewall_not_applied',
  // the guard behind tamper, user and process protection (agent `tamper.status`, `account.status`, `process.status`)
  'guard_not_running', 'guard_fanotify', 'guard_missing_ops', 'account_rename_open', 'process_net_off',
  // trojan protection (agent `trojan.status`): the real-time watch
  'trojan_watch_unavailable', 'trojan_watch_off',
  // remote protection (agent `remote.get`)
  'remote_needs_firewall', 'remote_no_sshd', 'remote_not_enforced',
  // website protection (the gateway's admin socket, the console's sites)
  'gateway_not_running', 'gateway_unreachable', 'no_site_protected',
  // no answer
  'agent_unreachable', 'status_unavailable',
] as const;
export const engineHealthReasonSchema = z.enum(engineHealthReasons);
export type EngineHealthReason = (typeof engineHealthReasons)[number];

/** One engine's health: fully enforced, or why not. */
export type EngineHealth = { state: 'ok' } | { state: Exclude<EngineHealthState, 'ok'>; reason: EngineHealthReason };

export const systemStatusLevels = ['protected', 'degraded', 'unprotected'] as const;
export type SystemStatusLevel = (typeof systemStatusLevels)[number];

/** Why the status is not "protected", most important first. Locale keys under `dashboard.status_why.`. */
export const systemStatusWhys = [
  'protection_off', 'protection_paused', 'agent_unreachable', 'no_module_on', 'all_failing', 'some_failing', 'some_partly', 'some_unknown',
] as const;
export type SystemStatusWhy = (typeof systemStatusWhys)[number];

const moduleIssueSchema = z.object({ module: moduleKeySchema, reason: engineHealthReasonSchema });
export type ModuleIssue = z.infer<typeof moduleIssueSchema>;

export const systemStatusSchema = z.object({
  level: z.enum(systemStatusLevels),
  why: z.array(z.enum(systemStatusWhys)),
  /** Modules of this build that are on and fully enforced. */
  healthy: z.array(moduleKeySchema),
  /** Modules of this build that are switched off. */
  off: z.array(moduleKeySchema),
  /** On, but their engine enforces nothing. */
  failing: z.array(moduleIssueSchema),
  /** On, enforced in part (e.g. the guard on the fanotify fallback). */
  partly: z.array(moduleIssueSchema),
  /** On, but nobody said how they are (the agent did not answer). */
  unknown: z.array(moduleIssueSchema),
});
export type SystemStatus = z.infer<typeof systemStatusSchema>;

export interface SystemStatusInput {
  /** The module switches (the console's desired state); modules outside this build are not counted. */
  modules: ModuleFlags;
  /** System protection: on, temporarily off, or off. */
  protection: 'on' | 'temp_off' | 'off';
  /** Whether the agent answered at all. */
  agent: 'connected' | 'unreachable';
  /** Each engine's health, for the modules that are on; a module on without one is of unknown health. */
  health: Partial<Record<ModuleKey, EngineHealth>>;
}

/** The system status from the switches, the protection mode and each engine's health. Pure. */
export function computeSystemStatus(input: SystemStatusInput): SystemStatus {
  const built = moduleKeys.filter((m) => modulesInBuild.includes(m));
  const on = built.filter((m) => input.modules[m] === 1);
  const status: SystemStatus = { level: 'protected', why: [], healthy: [], off: built.filter((m) => input.modules[m] !== 1), failing: [], partly: [], unknown: [] };
  for (const module of on) {
    const health: EngineHealth = input.agent === 'unreachable'
      ? { state: 'unknown', reason: 'agent_unreachable' }
      : (input.health[module] ?? { state: 'unknown', reason: 'status_unavailable' });
    if (health.state === 'ok') status.healthy.push(module);
    else status[health.state].push({ module, reason: health.reason });
  }
  if (input.protection === 'off') status.why.push('protection_off');
  if (input.protection === 'temp_off') status.why.push('protection_paused');
  if (input.agent === 'unreachable') status.why.push('agent_unreachable');
  if (on.length === 0) status.why.push('no_module_on');
  else if (status.failing.length === on.length) status.why.push('all_failing');
  else if (status.failing.length > 0) status.why.push('some_failing');
  if (status.partly.length > 0) status.why.push('some_partly');
  if (status.unknown.length > 0 && input.agent === 'connected') status.why.push('some_unknown');

  const nothingEnforced = input.protection !== 'on' || on.length === 0 || status.failing.length === on.length;
  status.level = nothingEnforced ? 'unprotected' : status.why.length > 0 ? 'degraded' : 'protected';
  return status;
}
