import path from 'node:path';
import { isProtectedPath, type ProcessStatus, type RuleState } from '@rampart/contracts';
import type { GuardSourceRule } from '@rampart/guard';
import type { Db } from '@rampart/sqlite';
import type { GuardService } from '../tamper/guard-service.ts';
import { readMountRoots } from './mount-roots.ts';
import { openProcessDb } from './process-db.ts';
import { ProcessRulesRepo, type StoredProcessRule } from './rules-repo.ts';

/**
 * A start pattern with `*` at its left end as the name of the file being started, which the kernel
 * matches wherever the file is (the guard's name match on an object at `/`): `*xmrig` (the path ends
 * in xmrig: so does the name) and `*` + `/xmrig` (the name is xmrig) read exactly. `*xmr*` reads as a
 * name containing xmr, narrower than the path (a folder named xmr… is not matched): `exact` false.
 * A literal holding `/` past its first character (`*bin` + `/xmrig`) names folders: null.
 */
export function startNamePattern(pattern: string): { name: string; exact: boolean } | null {
  if (!pattern.startsWith('*') || pattern === '*') return null;
  const trailing = pattern.length > 1 && pattern.endsWith('*');
  const literal = pattern.slice(1, trailing ? -1 : undefined);
  const name = literal.startsWith('/') ? literal.slice(1) : literal;
  if (name === '' || name.includes('/')) return null;
  const anchoredAtSlash = literal.startsWith('/');
  const text = `${anchoredAtSlash ? '' : '*'}${name}${trailing ? '*' : ''}`;
  return { name: text, exact: !trailing };
}

/** The guard source rules of one process rule, keyed `<id>:start` and `<id>:file<n>` (slots `process:<key>`). */
export function processSourceRules(rule: StoredProcessRule, mountRoots: readonly string[] = ['/']): GuardSourceRule[] {
  const out: GuardSourceRule[] = [];
  // Deny start: the executable itself is the protected object, x denied for every process.
  if (rule.deny_start && isProtectedPath(rule.process)) {
    out.push({ id: `${rule.id}:start`, path: rule.process, sub_path: '*', process: '*', exempt: rule.whitelist, level: 1, ops: ['x'], notify: rule.notify });
  } else if (rule.deny_start) {
    // A `*name` pattern names no path: the name of the file started, at every filesystem's root
    // (the kernel's walk ends there), on BPF LSM only (fanotify would mark every folder).
    const byName = startNamePattern(rule.process);
    if (byName) {
      out.push({ id: `${rule.id}:start`, path: '/', anchorPaths: mountRoots, sub_path: byName.name, process: '*', exempt: rule.whitelist, level: 1, ops: ['x'], notify: rule.notify, parentWalk: true });
    }
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
  readonly #readRoots: () => Promise<string[]>;
  #enabled: boolean;
  #mountRoots: string[] = ['/'];
  #rootsTimer: NodeJS.Timeout | null = null;

  private constructor(stateDir: string, guard: GuardService, enabled: boolean, areas: ProcessAreas | null, readRoots: () => Promise<string[]>) {
    this.db = openProcessDb(path.join(stateDir, 'process.db'));
    this.rules = new ProcessRulesRepo(this.db);
    this.#guard = guard;
    this.#areas = areas;
    this.#enabled = enabled;
    this.#readRoots = readRoots;
  }

  /**
   * `areas` expands allowed areas to address ranges; without it a rule with areas is `partial` (only
   * its IPs are allowed). `readRoots` lists the filesystem roots a start rule by name is anchored at.
   */
  static async open(stateDir: string, guard: GuardService, enabled: boolean, areas: ProcessAreas | null = null, readRoots: () => Promise<string[]> = readMountRoots): Promise<ProcessService> {
    const service = new ProcessService(stateDir, guard, enabled, areas, readRoots);
    await service.apply();
    // A filesystem mounted later (a new tmpfs, a USB disk) gets the start rules by name within a minute.
    service.#rootsTimer = setInterval(() => void service.#followMounts().catch(() => undefined), 60_000);
    service.#rootsTimer.unref();
    return service;
  }

  async #followMounts(): Promise<void> {
    if (!this.rules.all().some((rule) => rule.enabled && rule.deny_start && startNamePattern(rule.process))) return;
    const roots = await this.#readRoots();
    if (roots.join('\n') !== this.#mountRoots.join('\n')) await this.apply(roots);
  }

  get guard(): GuardService {
    return this.#guard;
  }

  /** Hands the enabled rules to the guard (the guard plans and applies); `roots` when the caller just read them. */
  async apply(roots?: string[]): Promise<void> {
    this.#mountRoots = roots ?? (await this.#readRoots());
    const rules = this.rules.all().filter((rule) => rule.enabled).flatMap((rule) => processSourceRules(rule, this.#mountRoots));
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
    const keys = processSourceRules(rule, this.#mountRoots).map((source) => this.#guard.sourceState(`process:${source.id}`));
    // A start rule by a pattern that names folders cannot be enforced by the guard's objects; one by a
    // `*name*` pattern matches the file's name only (see startNamePattern).
    if (rule.deny_start && !isProtectedPath(rule.process)) {
      const byName = startNamePattern(rule.process);
      if (!byName) keys.push(keys.length ? 'partial' : 'not_enforced');
      else if (!byName.exact) keys.push('partial');
    }
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
    if (this.#rootsTimer) clearInterval(this.#rootsTimer);
    this.#rootsTimer = null;
    this.db.close();
  }
}
