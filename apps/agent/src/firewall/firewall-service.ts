import path from 'node:path';
import { withTransaction, type Db } from '@rampart/sqlite';
import {
  evaluateInbound,
  families,
  planFlushList,
  planInterceptAdd,
  planInterceptRemove,
  planListChange,
  scanBlockSetName,
  type AddressList,
  type AreaLookup,
  type AreaResolver,
  type DesiredFirewall,
  type NftExecutor,
  type PlannedIntercept,
  type PlannedListEntry,
  type PlannedRemote,
} from '@rampart/firewall';
import {
  entryCovers,
  localDay,
  parseAddressEntry,
  probationSeconds,
  type EventInput,
  type FirewallChange,
  type FirewallGuard,
  type FirewallRefusal,
  type FirewallStatus,
  type FirewallWarning,
  type InterceptReason,
  type NoticeInput,
} from '@rampart/contracts';
import { CommonAreasRepo, expandAreaCodes, expandRuleAreas } from './common-areas-repo.ts';
import { openFirewallDb } from './firewall-db.ts';
import { InterceptsRepo } from './intercepts-repo.ts';
import { KernelState } from './kernel-state.ts';
import { ListsRepo, type StoredAddress } from './lists-repo.ts';
import { ProbationDesk } from './probation.ts';
import { RulesRepo } from './rules-repo.ts';
import { SettingsRepo } from './settings-repo.ts';

export interface FirewallSinks {
  event(input: EventInput): void;
  notice(input: NoticeInput): void;
}

export interface FirewallServiceOptions {
  stateDir: string;
  log: (line: string) => void;
  /** Null when the agent cannot change the kernel (not root, no nft): desired state is still kept. */
  nft: NftExecutor | null;
  areas: AreaResolver & { areaOf: AreaLookup };
  sinks: FirewallSinks;
  enabled: boolean;
  now?: () => number;
  /** Watchdog, port-scan drain and expiry sweep; tests call `tick()` instead. */
  background?: boolean;
  watchIntervalMs?: number;
  probationMs?: number;
  /** Protection is paused (temporarily or permanently off): nothing is enforced until it resumes. */
  paused?: boolean;
}

/** A data change that may be undone: what it changed, and how to put it back. */
interface Change {
  changed: number;
  undo: () => void;
  /** Brings the kernel in line after the change. (An undo re-applies the whole table: it is rare.) */
  kernel: () => Promise<void>;
}

const strangerAddress = '192.0.2.254';

/** Another module whose rules name the firewall's common areas (process protection's allowed areas). */
export interface CommonAreaUser {
  /** How many of its rules name the area reference `common:<id>` (a used area cannot be deleted). */
  uses(ref: string): number;
  /** The area's members changed: re-plan what names it. */
  changed(ref: string): Promise<void>;
}

/**
 * The host firewall: desired state in SQLite, the kernel made to match, the administrator kept
 * reachable, the kernel watched for outside edits, and the interception list fed by detections.
 * Every change runs one at a time.
 */
export class FirewallService {
  readonly db: Db;
  readonly rules: RulesRepo;
  readonly lists: ListsRepo;
  readonly intercepts: InterceptsRepo;
  readonly settings: SettingsRepo;
  readonly commonAreas: CommonAreasRepo;
  readonly kernel: KernelState;
  readonly probation: ProbationDesk;
  readonly #options: FirewallServiceOptions;
  readonly #now: () => number;
  #enabled: boolean;
  #paused: boolean;
  #queue: Promise<unknown> = Promise.resolve();
  #timers: NodeJS.Timeout[] = [];
  #parts: Array<{ configure(): Promise<void>; close(): Promise<void> }> = [];
  /** Remote protection's part of the ruleset (remote/remote-service.ts plugs in here); none by default. */
  #remote: (now: number) => PlannedRemote | null = () => null;
  readonly #areaUsers: CommonAreaUser[] = [];

  constructor(options: FirewallServiceOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#enabled = options.enabled;
    this.#paused = options.paused ?? false;
    this.db = openFirewallDb(path.join(options.stateDir, 'firewall.db'));
    this.rules = new RulesRepo(this.db);
    this.lists = new ListsRepo(this.db);
    this.intercepts = new InterceptsRepo(this.db);
    this.settings = new SettingsRepo(this.db, options.log);
    this.commonAreas = new CommonAreasRepo(this.db);
    this.kernel = new KernelState(options.nft, options.areas, options.log);
    this.probation = new ProbationDesk(options.probationMs ?? probationSeconds * 1000, this.#now, options.log);
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  /** The module is on and protection is not paused: the kernel holds the table and detections block. */
  get enforcing(): boolean {
    return this.#enabled && !this.#paused;
  }

  /** Remote protection's chain is planned with the firewall's, in the same table and transaction. */
  planRemoteWith(source: (now: number) => PlannedRemote | null): void {
    this.#remote = source;
  }

  /** Puts the ruleset in the kernel (at agent start: after a reboot the kernel has nothing). */
  async start(): Promise<void> {
    await this.serial(() => this.#applyAll());
    if (this.#options.background !== false) {
      const every = this.#options.watchIntervalMs ?? 2_000;
      this.#timers.push(setInterval(() => void this.tick().catch((e: unknown) => this.#options.log(`firewall: ${String(e)}`)), every));
      for (const timer of this.#timers) timer.unref();
    }
  }

  /** Runs `work` after every change queued before it. */
  serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** Everything the kernel ruleset is made from. */
  desired(): DesiredFirewall {
    return this.#state((list, now) => this.lists.planned(list, now), (now) => this.intercepts.active(now));
  }

  /**
   * The desired state as far as it concerns these addresses: every rule, but of the lists only
   * the entries that could cover them. Enough to evaluate them, without reading a million entries.
   */
  #stateFor(ips: readonly string[]): DesiredFirewall {
    return this.#state((list, now) => this.lists.covering(list, ips, now), (now) => this.intercepts.activeFor(ips, now));
  }

  #state(entries: (list: AddressList, now: number) => PlannedListEntry[], intercept: (now: number) => PlannedIntercept[]): DesiredFirewall {
    const now = this.#now();
    const members = this.commonAreas.membersById();
    return {
      // Common areas are expanded here, so the planner and the evaluator only see countries and provinces.
      rules: expandRuleAreas(this.rules.all(), (id) => members.get(id) ?? null),
      lists: { super: entries('super', now), white: entries('white', now), black: entries('black', now) },
      intercept: intercept(now),
      portScan: this.settings.attack().port_scan,
      remote: this.#remote(now),
      now,
    };
  }

  /** The kernel made to match: never throws, so a kernel problem cannot stop the agent. */
  async #applyAll(): Promise<void> {
    try {
      if (!this.enforcing) {
        if (this.kernel.available) await this.kernel.remove();
        return;
      }
      await this.kernel.applyFull(this.desired());
    } catch (error) {
      this.#options.sinks.event({ kind: 'firewall.apply_failed', module: 'firewall', level: 'critical', source: 'agent', params: { reason: (error as Error).message.slice(0, 300) } });
    }
  }

  async setEnabled(enabled: boolean): Promise<void> {
    await this.serial(async () => {
      this.#enabled = enabled;
      await this.#applyAll();
    });
    await this.reconfigured();
  }

  /** System protection paused or resumed: the table leaves the kernel (desired state is kept) or goes back in full. */
  async setPaused(paused: boolean): Promise<void> {
    await this.serial(async () => {
      this.#paused = paused;
      await this.#applyAll();
    });
    await this.reconfigured();
  }

  /** A part that follows the module switch and the attack settings (the log pipeline), closed with the service. */
  async attach(part: { configure(): Promise<void>; close(): Promise<void> }): Promise<void> {
    this.#parts.push(part);
    await part.configure();
  }

  /** The module switch or the attack settings changed. */
  async reconfigured(): Promise<void> {
    for (const part of this.#parts) await part.configure();
  }

  /** Periodic upkeep: outside edits undone, kernel port-scan blocks recorded, ended entries removed. */
  async tick(): Promise<void> {
    await this.serial(async () => {
      if (!this.enforcing || !this.kernel.available) return;
      if (this.kernel.state === 'ok' && !(await this.kernel.intact())) {
        this.#options.log('firewall: the ruleset was changed outside Rampart; restoring it');
        await this.#applyAll();
        this.kernel.restored += 1;
        this.#options.sinks.event({ kind: 'firewall.restored', module: 'firewall', level: 'warning', source: 'agent' });
      } else if (this.kernel.state === 'error') {
        await this.#applyAll();
      }
      await this.#drainScanBlocks();
      this.#sweepExpired();
    });
  }

  /** The kernel blocks port scanners by itself; here they join the interception list, the log and the notices. */
  async #drainScanBlocks(): Promise<void> {
    if (this.kernel.state !== 'ok') return;
    const now = this.#now();
    const { ports, seconds, block_minutes: minutes } = this.settings.attack().port_scan;
    // The evidence in numbers only, so it reads the same in both languages (the reason is named in words).
    const detail = `> ${ports} / ${seconds} s`;
    for (const fam of families) {
      for (const element of await this.kernel.readSet(scanBlockSetName(fam))) {
        if (this.intercepts.isBlocked(element.ip, now)) continue;
        this.#record(element.ip, 'port_scan', detail, minutes, now, now + (element.expiresInS ?? minutes * 60) * 1000);
      }
    }
  }

  #sweepExpired(): void {
    const now = this.#now();
    this.intercepts.purgeExpired(now);
    const ended = this.lists.purgeExpired(now);
    // Hosts leave the kernel by their own timeout; merged networks must be re-merged.
    const lists = new Set(ended.filter((entry) => !entry.isHost).map((entry) => entry.list));
    for (const list of lists) {
      void this.kernel.applyDelta(planListChange({ list, addedHosts: [], removedHosts: [], netsBefore: [], netsAfter: this.lists.nets(list, now), now }), () => this.desired());
    }
  }

  #record(ip: string, reason: InterceptReason, detail: string, minutes: number, now: number, expiresAt: number): boolean {
    const fresh = this.intercepts.upsert({ ip, reason, detail: detail.slice(0, 1000), blocked_at: now, expires_at: expiresAt });
    if (!fresh) return false;
    const params = { ip, reason, minutes };
    this.#options.sinks.event({ kind: 'firewall.blocked', module: 'firewall', level: 'warning', source: reason, ip, params, detail: detail.slice(0, 4000) });
    this.#options.sinks.notice({ kind: 'firewall_block', params, dedupe_key: `firewall_block:${reason}:${ip}:${localDay(now)}` });
    return true;
  }

  /** A detection's decision: block `ip` for `minutes`, unless a whitelist covers it. */
  async block(ip: string, reason: InterceptReason, minutes: number, detail: string): Promise<boolean> {
    return this.serial(async () => {
      const now = this.#now();
      if (this.isExempt(ip)) return false;
      const expiresAt = now + minutes * 60_000;
      if (!this.#record(ip, reason, detail, minutes, now, expiresAt)) return false;
      if (this.enforcing) await this.kernel.applyDelta(planInterceptAdd([{ ip, expires_at: expiresAt }], now), () => this.desired());
      return true;
    });
  }

  /** Loopback and the super whitelist and whitelist are never blocked by a detection. */
  isExempt(ip: string): boolean {
    if (ip === '127.0.0.1' || ip === '::1' || ip.startsWith('127.')) return true;
    const now = this.#now();
    for (const list of ['super', 'white'] as const) {
      for (const entry of this.lists.covering(list, [ip], now)) {
        const parsed = parseAddressEntry(entry.address);
        if (parsed && parsed.kind !== 'any' && entryCovers(parsed, ip)) return true;
      }
    }
    return false;
  }

  /**
   * Makes a change with the administrator kept in mind: a change that newly drops the
   * administrator's own address on the panel port goes live on probation and is rolled back
   * unless confirmed; a second such change waits for the first.
   */
  async guarded(guard: FirewallGuard | null, make: () => Change | FirewallRefusal, alsoPorts: readonly number[] = []): Promise<FirewallChange> {
    return this.serial(async () => {
      // The panel port, and the ports a caller adds (remote protection: sshd's): dropped on any of them is cut off.
      const ports = [guard?.panel_port ?? 0, ...alsoPorts];
      const probe = (source: string, desired: DesiredFirewall) =>
        ports.some((port) => evaluateInbound(desired, { source, protocol: 'tcp', port }, this.#options.areas.areaOf).verdict === 'drop') ? 'drop' : 'accept';
      const admin = guard?.admin_ip && guard.admin_ip !== '127.0.0.1' && guard.admin_ip !== '::1' ? guard.admin_ip : null;
      const before = admin ? probe(admin, this.#stateFor([admin])) : 'accept';
      const change = withTransaction(this.db, make);
      if (typeof change === 'string') return { refused: change, probation: null, warnings: [], changed: 0 };
      const after = this.#stateFor(admin ? [admin] : []);
      const warnings: FirewallWarning[] = [];
      const cutsAdmin = admin !== null && before === 'accept' && probe(admin, after) === 'drop';
      if (cutsAdmin) warnings.push('own_ip_blocked');
      const stranger = { ...after, lists: { super: [], white: [], black: [] }, intercept: [] };
      if (guard && evaluateInbound(stranger, { source: strangerAddress, protocol: 'tcp', port: guard.panel_port }, this.#options.areas.areaOf).verdict === 'drop') warnings.push('panel_port_closed');
      if (cutsAdmin && this.probation.pending) {
        withTransaction(this.db, change.undo);
        return { refused: 'fw_probation_pending', probation: null, warnings: [], changed: 0 };
      }
      if (this.enforcing) await change.kernel();
      if (!cutsAdmin) return { refused: null, probation: null, warnings, changed: change.changed };
      const probation = this.probation.open(warnings, () =>
        this.serial(async () => {
          withTransaction(this.db, change.undo);
          await this.#applyAll();
          const account = guard?.account ?? '';
          this.#options.sinks.event({ kind: 'firewall.rolled_back', module: 'firewall', level: 'warning', source: 'agent', account, ip: admin ?? '', params: { account, seconds: probationSeconds } });
        }),
      );
      return { refused: null, probation, warnings, changed: change.changed };
    });
  }

  /** Rules or attack settings changed: rebuild the chains (with the module off the kernel is left alone). */
  async refreshRules(): Promise<void> {
    if (!this.enforcing) return;
    return this.kernel.refreshRules(this.desired()).catch((error: unknown) => {
      this.#options.sinks.event({ kind: 'firewall.apply_failed', module: 'firewall', level: 'critical', source: 'agent', params: { reason: String((error as Error).message).slice(0, 300) } });
    });
  }

  /** Kernel update after list entries were added or removed. */
  async listDelta(list: AddressList, added: readonly StoredAddress[], removed: readonly StoredAddress[], netsBefore: readonly string[]): Promise<void> {
    const now = this.#now();
    const script = planListChange({
      list,
      addedHosts: added.filter((a) => a.isHost).map((a) => ({ address: a.address, expires_at: a.expires_at })),
      removedHosts: removed.filter((a) => a.isHost).map((a) => a.address),
      netsBefore,
      netsAfter: this.lists.nets(list, now),
      now,
    });
    await this.kernel.applyDelta(script, () => this.desired());
  }

  async flushList(list: AddressList): Promise<void> {
    await this.kernel.applyDelta(planFlushList(list), () => this.desired());
  }

  async interceptDelta(added: ReadonlyArray<{ ip: string; expires_at: number }>, removed: readonly string[]): Promise<void> {
    const now = this.#now();
    if (removed.length > 0) await this.kernel.applyDelta(planInterceptRemove(removed, this.settings.attack().port_scan.seconds), () => this.desired());
    if (added.length > 0) await this.kernel.applyDelta(planInterceptAdd(added, now), () => this.desired());
  }

  status(): FirewallStatus {
    const now = this.#now();
    const rules = this.rules.counts();
    const kernel = !this.kernel.available ? 'unavailable' : this.enforcing ? this.kernel.state : 'off';
    return {
      kernel,
      message: this.kernel.message,
      applied_at: this.kernel.appliedAt,
      restored: this.kernel.restored,
      counts: { rules_in: rules.in, rules_out: rules.out, white: this.lists.count('white'), black: this.lists.count('black'), intercept: this.intercepts.count(now) },
      probation: this.probation.pending,
    };
  }

  now(): number {
    return this.#now();
  }

  /** The areas (country, province codes) an address is in, from the geo-IP data. */
  areaOf(ip: string): readonly string[] {
    return this.#options.areas.areaOf(ip);
  }

  /** Countries, provinces and common areas → address ranges from the geo-IP data (for other modules' rules). */
  areaRanges(codes: readonly string[]): { v4: readonly string[]; v6: readonly string[] } {
    const members = this.commonAreas.membersById();
    return this.#options.areas.ranges(expandAreaCodes(codes, (id) => members.get(id) ?? null));
  }

  /** Registers a module whose rules name common areas: counted before a delete, told after an edit. */
  useCommonAreas(user: CommonAreaUser): void {
    this.#areaUsers.push(user);
  }

  get commonAreaUsers(): readonly CommonAreaUser[] {
    return this.#areaUsers;
  }

  async close(): Promise<void> {
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers = [];
    for (const part of this.#parts) await part.close();
    await this.probation.close();
    await this.#queue;
    this.db.close();
  }
}
