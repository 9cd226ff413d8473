import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '@rampart/sqlite';
import { tamperOps, type EventInput, type NoticeInput, type GuardHello, type GuardNetDenial, type GuardStatus, type RuleState } from '@rampart/contracts';
import {
  DenialRecorder,
  GuardHelperClient,
  guardFingerprint,
  planGuard,
  planNet,
  resolveExecutables,
  resolveGuard,
  type GuardPlanResult,
  type GuardProcessRule,
  type ResolvedExe,
  type GuardResolution,
  type GuardRuleSource,
  type GuardRuleStates,
  type GuardTamperRule,
  type ResolveRoots,
} from '@rampart/guard';
import { writeFileAtomic } from '../modules/atomic-write.ts';
import { HelperProcess, type HelperProcessOptions } from './helper-process.ts';
import { NamingRulesRepo } from './names-repo.ts';
import { TamperRulesRepo } from './rules-repo.ts';
import { openTamperDb } from './tamper-db.ts';

/** The states of a plan the helper did not take: whatever would have been enforced is not. */
function notEnforced(states: GuardRuleStates): GuardRuleStates {
  const down = (record: Record<number, RuleState>) =>
    Object.fromEntries(Object.entries(record).map(([id, state]) => [id, state === 'active' || state === 'partial' ? 'not_enforced' : state])) as Record<number, RuleState>;
  const result: GuardRuleStates = { tamper: down(states.tamper), names: down(states.names) };
  if (states.sources) result.sources = Object.fromEntries(Object.entries(states.sources).map(([key, state]) => [key, state === 'active' || state === 'partial' ? 'not_enforced' : state]));
  return result;
}

export interface GuardSinks {
  event(input: EventInput): void;
  notice?(input: NoticeInput): void;
}

export interface GuardServiceOptions {
  stateDir: string;
  log: (line: string) => void;
  sinks: GuardSinks;
  /** The tamper module's switch. */
  enabled: boolean;
  /** System protection is paused. */
  paused: boolean;
  isRoot: boolean;
  helper: Omit<HelperProcessOptions, 'log' | 'isRoot' | 'onStarted'> & { spawn: boolean };
  /** Rampart's own directories: always allowed. */
  selfPaths: readonly string[];
  roots: ResolveRoots;
  now?: () => number;
  /** The fingerprint check (30 s); tests turn it off and call tick(). */
  background?: boolean;
  checkIntervalMs?: number;
  /** Helper client reconnect delays and request timeout. */
  client?: { backoff?: { minMs: number; maxMs: number }; timeoutMs?: number };
}

/**
 * The guard's one owner: tamper protection's rules in SQLite, other guard modules' rules handed in
 * with setSource (user protection's account files, ...), the helper (started or found), and the ONE
 * plan kept applied. Each module's switch gates its own rules; the plan enforces while any guard
 * module is on and protection is not paused. Every change, module switch, pause, helper (re)connect and stale resolve re-plans; Node
 * is never in the permission path, it only hands tables to the helper. One change at a time.
 */
export class GuardService {
  readonly db: Db;
  readonly rules: TamperRulesRepo;
  readonly names: NamingRulesRepo;
  readonly #options: GuardServiceOptions;
  readonly #now: () => number;
  readonly #client: GuardHelperClient;
  readonly #process: HelperProcess | null;
  readonly #denials: DenialRecorder;
  #enabled: boolean;
  #paused: boolean;
  /** Other modules' rules by module key, in the order they were first set. */
  readonly #sources = new Map<string, GuardRuleSource>();
  #queue: Promise<unknown> = Promise.resolve();
  #hello: GuardHello | null = null;
  #resolution: GuardResolution | null = null;
  #fingerprint = '';
  #result: GuardPlanResult | null = null;
  #generation = 0;
  #appliedAt = 0;
  #applyError: string | null = null;
  #timer: NodeJS.Timeout | null = null;
  /** Process protection's network rules (planNet), their executables and states. */
  #netRules: readonly GuardProcessRule[] = [];
  #netExes: Record<string, ResolvedExe[]> = {};
  #selfExes: ResolvedExe[] = [];
  #netStates: Record<number, RuleState> = {};
  #netNotify = new Set<number>();

  constructor(options: GuardServiceOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#enabled = options.enabled;
    this.#paused = options.paused;
    this.db = openTamperDb(path.join(options.stateDir, 'tamper.db'));
    this.rules = new TamperRulesRepo(this.db);
    this.names = new NamingRulesRepo(this.db);
    this.#denials = new DenialRecorder({ sink: (input) => options.sinks.event(input), notice: options.sinks.notice ? (input) => options.sinks.notice?.(input) : undefined, now: this.#now, timers: options.background !== false });
    this.#client = new GuardHelperClient({
      socketPath: options.helper.socketPath,
      log: options.log,
      onDenial: (denial) => this.#denials.record(denial),
      onNetDenial: (denial) => this.#netDenied(denial),
      onConnect: () => void this.serial(() => this.#greet()).catch((error: unknown) => options.log(`guard: ${String(error)}`)),
      onDisconnect: () => {
        this.#hello = null;
      },
      ...options.client,
    });
    const { spawn, ...helper } = options.helper;
    this.#process = spawn ? new HelperProcess({ ...helper, log: options.log, isRoot: options.isRoot, onStarted: () => this.#client.retryNow() }) : null;
  }

  now(): number {
    return this.#now();
  }

  /** Writes an event to the store (the handlers' operation records). */
  sinkEvent(input: EventInput): void {
    this.#options.sinks.event(input);
  }

  /** Any guard module is on and protection is not paused. */
  get enforcing(): boolean {
    return this.#anyModuleOn() && !this.#paused;
  }

  #anyModuleOn(): boolean {
    return this.#enabled || [...this.#sources.values()].some((source) => source.enabled);
  }

  /** Another module's rules (or its switch) changed: resolve again and apply. */
  async setSource(source: GuardRuleSource): Promise<void> {
    await this.serial(async () => {
      const before = this.#sources.get(source.module);
      this.#sources.set(source.module, source);
      // Off before and after: the plan would be the same, so no new generation (an agent start with
      // the module off plans exactly as tamper alone did). It is resolved when it is switched on.
      if (!source.enabled && !before?.enabled) return;
      await this.#replan(true);
    });
  }

  /**
   * Process protection's network rules (deny TCP/UDP except allowed peers, areas already expanded).
   * `notify`: rule ids whose denials also raise a notice. An empty list leaves the plan without a net part.
   */
  async setNetRules(rules: readonly GuardProcessRule[], notify: readonly number[] = []): Promise<void> {
    await this.serial(async () => {
      const unchanged = rules.length === 0 && this.#netRules.length === 0;
      this.#netRules = rules;
      this.#netNotify = new Set(notify);
      if (!unchanged) await this.#replan(true);
    });
  }

  /** A network rule's state (`off` when unknown). */
  netState(id: number): RuleState {
    return this.#netStates[id] ?? 'off';
  }

  /** Whether the helper's network programs run, and why not (hello's `net_cause`). */
  netStatus(): { net: boolean; cause: string | null } {
    const hello = this.#client.connected ? this.#hello : null;
    if (!hello) return { net: false, cause: 'guard_helper_missing' };
    return { net: hello.net === true, cause: hello.net === true ? null : hello.net_cause || 'net_unavailable' };
  }

  #netDenied(denial: GuardNetDenial): void {
    const id = Number(denial.rule.split(':')[1]);
    this.#denials.recordNet(denial, this.#netNotify.has(id));
  }

  /** A rule of another module: `<module>:<id>`. */
  sourceState(key: string): RuleState {
    return this.#result?.ruleStates.sources?.[key] ?? 'off';
  }

  /**
   * The last plan, saved for the helper: started by systemd with `--plan-file`, it enforces this at
   * boot before the agent is up. Generations continue from it.
   */
  get planFile(): string {
    return path.join(this.#options.stateDir, 'guard-plan.json');
  }

  /** Plans once (rule states are known even without a helper), then finds or starts the helper. */
  async start(): Promise<void> {
    try {
      const saved = JSON.parse(await readFile(this.planFile, 'utf8')) as { generation?: unknown };
      if (typeof saved.generation === 'number' && Number.isSafeInteger(saved.generation)) this.#generation = saved.generation;
    } catch {
      // no saved plan yet
    }
    await this.serial(() => this.#replan(true));
    await this.#process?.start();
    this.#client.start();
    if (this.#options.background !== false) {
      this.#timer = setInterval(() => void this.tick().catch((error: unknown) => this.#options.log(`guard: ${String(error)}`)), this.#options.checkIntervalMs ?? 30_000);
      this.#timer.unref();
    }
  }

  serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** The rules changed: resolve again and apply. */
  async changed(): Promise<void> {
    await this.serial(() => this.#replan(true));
  }

  /**
   * The driver update (POST /home/update_kernel): the helper the agent started is stopped and
   * started again (so it probes the kernel's mechanisms afresh), its hello awaited, and the rules
   * resolved and applied again. A helper another supervisor runs (systemd) is left alone.
   */
  async restartHelper(helloTimeoutMs = 10_000): Promise<'restarted' | 'external' | 'not_started'> {
    const child = this.#process;
    if (!child || child.state === 'external') {
      await this.changed();
      return child ? 'external' : 'not_started';
    }
    await this.serial(async () => {
      await child.stop();
      this.#hello = null;
    });
    await child.start();
    if (child.state === 'starting' || child.state === 'running') {
      // The client reconnects on the child's start; its greeting re-plans (serialised).
      for (const until = Date.now() + helloTimeoutMs; Date.now() < until && !(this.#client.connected && this.#hello); ) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await this.changed();
    return child.state === 'running' || child.state === 'starting' ? 'restarted' : 'not_started';
  }

  /** The helper binary the agent starts (the driver update rebuilds it where its build step lies beside it). */
  get helperBinary(): string {
    return this.#options.helper.binary;
  }

  async setEnabled(enabled: boolean): Promise<void> {
    await this.serial(async () => {
      this.#enabled = enabled;
      await this.#replan(false);
    });
  }

  async setPaused(paused: boolean): Promise<void> {
    await this.serial(async () => {
      this.#paused = paused;
      await this.#replan(false);
    });
  }

  /** Re-resolves when a package upgrade replaced a binary or a watched path changed. */
  async tick(): Promise<void> {
    await this.serial(async () => {
      if (!this.#resolution) return this.#replan(true);
      if ((await guardFingerprint(this.#resolution.watch)) !== this.#fingerprint) await this.#replan(true);
    });
    this.#denials.flush();
  }

  tamperState(id: number): RuleState {
    return this.#result?.ruleStates.tamper[id] ?? 'off';
  }

  nameState(id: number): RuleState {
    return this.#result?.ruleStates.names[id] ?? 'off';
  }

  /** The plan last made (tests read it). */
  get lastPlan(): GuardPlanResult | null {
    return this.#result;
  }

  /** The helper child's pid, when the agent started it. */
  get helperPid(): number | null {
    return this.#process?.pid ?? null;
  }

  get selfPaths(): readonly string[] {
    return this.#options.selfPaths;
  }

  status(): GuardStatus {
    const hello = this.#client.connected ? this.#hello : null;
    const enforced = hello?.ops ?? [];
    return {
      backend: hello?.backend ?? 'none',
      running: hello !== null,
      kernel: hello?.kernel ?? os.release(),
      enforced_ops: [...enforced],
      missing_ops: tamperOps.filter((op) => !enforced.includes(op)),
      causes: this.#causeKeys(hello),
      warnings: this.#result?.warnings ?? [],
      objects: this.#result?.plan.objects.length ?? 0,
      rules: this.rules.all().filter((rule) => rule.enabled).length + this.names.all().filter((rule) => rule.enabled).length,
      generation: this.#generation,
      applied_at: this.#appliedAt,
    };
  }

  /** Causes for the home page's kernel status, while the module is on. */
  kernelCauses(): string[] {
    if (!this.#anyModuleOn()) return [];
    return this.#causeKeys(this.#client.connected ? this.#hello : null);
  }

  /** Causes as locale keys under `kernel_cause.`: the guard's own carry `guard_` (`guard_lsm_refused`), shared ones not (`not_root`). */
  #causeKeys(hello: GuardHello | null): string[] {
    return this.#causes(hello).map((cause) => (cause === 'not_root' ? cause : `guard_${cause}`));
  }

  #causes(hello: GuardHello | null): string[] {
    const causes: string[] = [];
    if (!this.#options.isRoot) causes.push('not_root');
    if (!hello) {
      const state = this.#process?.state;
      if (state === 'helper_failed') causes.push('helper_failed');
      else if (state !== 'not_root') causes.push(state === 'helper_missing' || state === undefined ? 'helper_missing' : 'helper_failed');
    } else {
      // No backend at all (auto tried both): one cause that says neither runs, not "LSM refused,
      // running on fanotify" beside it. On fanotify: why BPF LSM is not running (refused, unavailable).
      if (hello.backend === 'none') causes.push('no_backend');
      else if (hello.cause) causes.push(hello.cause);
      if (this.#applyError) causes.push('helper_failed');
    }
    return [...new Set(causes)];
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#queue;
    this.#denials.flush(true);
    await this.#client.close();
    await this.#process?.stop();
    this.db.close();
  }

  #backendRunning(): boolean {
    return this.#client.connected && this.#hello !== null && this.#hello.backend !== 'none';
  }

  async #greet(): Promise<void> {
    try {
      this.#hello = await this.#client.hello();
      this.#generation = Math.max(this.#generation, this.#hello.generation);
      this.#process?.markHealthy();
    } catch (error) {
      this.#options.log(`guard: hello failed: ${(error as Error).message}`);
      return;
    }
    await this.#replan(false);
  }

  /** Never throws: a host or helper problem must not fail the rule change that triggered it (it is stored). */
  async #replan(resolve: boolean): Promise<void> {
    try {
      await this.#plan(resolve);
    } catch (error) {
      this.#options.log(`guard: planning failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async #plan(resolve: boolean): Promise<void> {
    // With another module on and tamper off, tamper's rules leave the plan (the plan enforces for
    // that module). With every module off the tables stay as they are and the plan says enforce false.
    const gateTamper = !this.#enabled && this.#anyModuleOn();
    const allTamper = this.rules.all();
    const allNaming = this.names.all();
    const tamper = gateTamper ? allTamper.map((rule) => ({ ...rule, enabled: false })) : allTamper;
    const naming = gateTamper ? allNaming.map((rule) => ({ ...rule, enabled: false })) : allNaming;
    const sources = [...this.#sources.values()];
    if (resolve || !this.#resolution) {
      // Resolved before any switch gates them, so a switch needs no new resolve. The resolver knows
      // tamper rules; other modules' rules resolve the same way under stand-in ids.
      const sourceRules: GuardTamperRule[] = sources.flatMap((source) =>
        source.rules.flatMap((rule, i) => (rule.anchorPaths ?? [rule.path]).map((anchor) => ({ ...rule, path: anchor, id: -1 - i, enabled: true }))),
      );
      this.#resolution = await resolveGuard([...allTamper, ...sourceRules], allNaming, this.#options.selfPaths, this.#options.roots);
      // Process protection's network rules: their executables and Rampart's own (never restricted).
      const netPatterns = this.#netRules.filter((rule) => rule.enabled).map((rule) => rule.process);
      if (netPatterns.length) {
        const helperBinary = this.#options.helper.binary;
        const found = await resolveExecutables([...netPatterns, process.execPath, helperBinary], this.#options.roots);
        this.#netExes = found.exes;
        this.#selfExes = [...(found.exes[process.execPath] ?? []), ...(found.exes[helperBinary] ?? [])];
        this.#resolution = { ...this.#resolution, watch: [...this.#resolution.watch, ...found.watch] };
      } else {
        this.#netExes = {};
      }
      this.#fingerprint = await guardFingerprint(this.#resolution.watch);
    }
    this.#generation += 1;
    const helperPid = this.#process?.pid;
    const result = planGuard({
      tamper,
      ...(sources.length ? { sources } : {}),
      naming,
      resolved: this.#resolution.resolved,
      exes: this.#resolution.exes,
      selfPaths: this.#options.selfPaths,
      trustedPids: helperPid ? [process.pid, helperPid] : [process.pid],
      enforce: this.enforcing,
      generation: this.#generation,
      backendOps: this.#backendRunning() ? this.#hello!.ops : null,
      backendMarksTrees: this.#backendRunning() && this.#hello!.backend === 'fanotify',
    });
    if (this.#netRules.length) {
      const net = planNet({ rules: this.#netRules, exes: this.#netExes, selfExes: this.#selfExes, netRunning: this.#backendRunning() && this.#hello?.net === true });
      result.plan = { ...result.plan, net: net.net };
      result.warnings = [...new Set([...result.warnings, ...net.warnings])];
      this.#netStates = net.ruleStates;
    } else {
      this.#netStates = {};
    }
    // Saved for boot without trusted pids: by then they are other processes'. Ours go out again on connect.
    await writeFileAtomic(this.planFile, `${JSON.stringify({ ...result.plan, trusted_pids: [] })}\n`);
    // A helper without a backend refuses plans: there is nothing to hand over until it has one.
    if (!this.#backendRunning()) {
      this.#result = result;
      return;
    }
    try {
      await this.#client.apply(result.plan);
      // Rule states are published once the helper holds the plan: `active` means enforced now.
      this.#result = result;
      this.#appliedAt = this.#now();
      this.#applyError = null;
    } catch (error) {
      this.#result = { ...result, ruleStates: notEnforced(result.ruleStates) };
      this.#netStates = Object.fromEntries(Object.entries(this.#netStates).map(([id, state]) => [id, state === 'active' || state === 'partial' ? 'not_enforced' : state]));
      const reason = (error as Error).message.slice(0, 300);
      // One event per distinct failure: a helper that keeps refusing must not fill the log.
      if (reason !== this.#applyError) this.#options.sinks.event({ kind: 'tamper.apply_failed', module: 'tamper', level: 'critical', source: 'agent', params: { reason } });
      this.#applyError = reason;
    }
  }
}
