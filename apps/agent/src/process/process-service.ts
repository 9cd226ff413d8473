import path from 'node:path';
import { isProtectedPath, type ProcessStatus, type RuleState } from '@rampart/contracts';
import type { GuardSourceRule } from '@rampart/guard';
import type { Db } from '@rampart/sqlite';
import type { GuardService } from '../tamper/guard-service.ts';
import { openProcessDb } from './process-db.ts';
import { ProcessRulesRepo, type StoredProcessRule } from './rules-repo.ts';

/** The guard source rules of one process rule, keyed `<id>:start` and `<id>:file<n>` (slots `process:<key>`). */
export function processSourceRules(rule: StoredProcessRule): GuardSourceRule[] {
  const out: GuardSourceRule[] = [];
  // Deny start: the executable itself is the protected object, x denied for every process. A
  // pattern with `*` at its left end names no path, so it cannot be an object (see startState).
  if (rule.deny_start && isProtectedPath(rule.process)) {
    out.push({ id: `${rule.id}:start`, path: rule.process, sub_path: '*', process: '*', exempt: rule.whitelist, level: 1, ops: ['x'], notify: rule.notify });
  }
  // File access rules restrict this executable only; an allow rule is an empty-ops slot (let through, lower levels skipped).
  rule.files.forEach((file, index) => {
    out.push({ id: `${rule.id}:file${index}`, path: file.path, sub_path: '*', process: rule.process, exempt: rule.whitelist, level: file.level, ops: file.action === 'deny' ? file.ops : [], notify: rule.notify });
  });
  return out;
}

/** The weakest of several states: one part not enforced makes the rule not enforced. */
function combine(states: readonly RuleState[]): RuleState {
  for (const state of ['not_enforced', 'partial', 'path_missing', 'off'] as const) if (states.includes(state)) return state;
  return 'active';
}

/** Area codes (countries, provinces, common areas) → address ranges; the firewall's geo-IP data answers. */
export interface ProcessAreas {
  areaRanges(codes: readonly string[]): { v4: readonly string[]; v6: readonly string[] };
}

/**
 * Process protection: rules in <stateDir>/process.db, handed to the guard as the `process` rule
 * source (deny start and file access rules) and as the plan's net part (deny TCP/UDP except the
 * allowed peers, through the helper's cgroup programs).
 */
export class ProcessService {
  readonly db: Db;
  readonly rules: ProcessRulesRepo;
  readonly #guard: GuardService;
  readonly #areas: ProcessAreas | null;
  #enabled: boolean;

  private constructor(stateDir: string, guard: GuardService, enabled: boolean, areas: ProcessAreas | null) {
    this.db = openProcessDb(path.join(stateDir, 'process.db'));
    this.rules = new ProcessRulesRepo(this.db);
    this.#guard = guard;
    this.#areas = areas;
    this.#enabled = enabled;
  }

  /** `areas` expands allowed areas to address ranges; without it a rule with areas is `partial` (only its IPs are allowed). */
  static async open(stateDir: string, guard: GuardService, enabled: boolean, areas: ProcessAreas | null = null): Promise<ProcessService> {
    const service = new ProcessService(stateDir, guard, enabled, areas);
    await service.apply();
    return service;
  }

  get guard(): GuardService {
    return this.#guard;
  }

  /** Hands the enabled rules to the guard (the guard plans and applies). */
  async apply(): Promise<void> {
    const rules = this.rules.all().filter((rule) => rule.enabled).flatMap(processSourceRules);
    await this.#guard.setSource({ module: 'process', enabled: this.#enabled, rules });
    // The network part: rules that deny traffic, gated by the module switch. Allowed areas become
    // the geo-IP data's address ranges beside the IP entries (the planner merges them into CIDRs).
    const net = this.rules.all().filter((rule) => rule.deny_tcp || rule.deny_udp);
    await this.#guard.setNetRules(
      net.map((rule) => ({ id: rule.id, enabled: this.#enabled && rule.enabled, process: rule.process, deny_tcp: rule.deny_tcp, deny_udp: rule.deny_udp, allow: [...rule.allow_ips, ...this.#areaEntries(rule)] })),
      net.filter((rule) => rule.notify).map((rule) => rule.id),
    );
  }

  /** The allowed areas as range entries; none without the geo-IP data. */
  #areaEntries(rule: StoredProcessRule): string[] {
    if (!this.#areas || rule.allow_areas.length === 0) return [];
    const ranges = this.#areas.areaRanges(rule.allow_areas);
    return [...ranges.v4, ...ranges.v6];
  }

  /** How many rules allow the common area `ref` (the firewall refuses to delete a used area). */
  uses(ref: string): number {
    return this.rules.all().filter((rule) => rule.allow_areas.includes(ref)).length;
  }

  /** A common area's members changed: the rules that allow it are planned again. */
  async changed(ref: string): Promise<void> {
    if (this.uses(ref) > 0) await this.apply();
  }

  async setEnabled(enabled: boolean): Promise<void> {
    this.#enabled = enabled;
    await this.apply();
  }

  /** The start and file part's state. */
  state(rule: StoredProcessRule): RuleState {
    if (!this.#enabled || !rule.enabled) return 'off';
    const keys = processSourceRules(rule).map((source) => this.#guard.sourceState(`process:${source.id}`));
    // A start rule by a `*name` pattern cannot be enforced by the guard's objects.
    if (rule.deny_start && !isProtectedPath(rule.process)) keys.push(keys.length ? 'partial' : 'not_enforced');
    return keys.length ? combine(keys) : this.netState(rule);
  }

  /** The network part's state from the helper's net plan (partial when its allowed networks did not all fit, or areas cannot be expanded). */
  netState(rule: StoredProcessRule): RuleState {
    if (!this.#enabled || !rule.enabled || !(rule.deny_tcp || rule.deny_udp)) return 'off';
    const state = this.#guard.netState(rule.id);
    return state === 'active' && rule.allow_areas.length && !this.#areas ? 'partial' : state;
  }

  status(): ProcessStatus {
    const { net, cause } = this.#guard.netStatus();
    return { enabled: this.#enabled, backend: this.#guard.status().backend, net, net_cause: cause, rules: this.rules.all().filter((rule) => rule.enabled).length };
  }

  close(): void {
    this.db.close();
  }
}
