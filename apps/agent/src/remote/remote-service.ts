import { localOffsetAt, nextOffsetChange, type PlannedRemote } from '@rampart/firewall';
import { commonAreaIdOf, type FirewallChange, type FirewallGuard, type RemoteAccess, type RemoteBruteforce, type RemoteView, type RemoteWarning, type SshdReading } from '@rampart/contracts';
import type { FirewallService, FirewallSinks } from '../firewall/firewall-service.ts';
import { LoginWatcher, type AcceptedLogin, type LoginSources } from './login-watcher.ts';
import { RemoteRepo } from './remote-repo.ts';
import { readSshd } from './sshd-reading.ts';

export interface RemoteOptions {
  /** argv of `sshd -T` (tests run it in their namespace with their own config). */
  sshdCommand?: readonly string[];
  /** The server's UTC offset at a moment, minutes east (tests inject a zone); the process's zone by default. */
  offsetAt?: (at: number) => number;
  /** How often `sshd -T` is read again (default a minute; the page's reading also reads it). */
  sshdRereadMs?: number;
  /** Where accepted logins are read: defaults to the firewall's SSH brute-force sources (journal and auth logs). */
  loginSources?: Partial<LoginSources>;
}

const hourly = 3600;

/**
 * Remote-login protection on Linux: sshd's ports accept only the authorized sources inside the
 * windows (a chain of the firewall's ruleset, planned with it), accepted logins are announced,
 * and the brute-force limit is the firewall's SSH brute-force scenario, shown per hour.
 */
export class RemoteService {
  readonly repo: RemoteRepo;
  readonly #firewall: FirewallService;
  readonly #sinks: FirewallSinks;
  readonly #options: RemoteOptions;
  readonly #log: (line: string) => void;
  readonly #offsetAt: (at: number) => number;
  #enabled: boolean;
  #sshd: SshdReading = { ok: false, ports: [], password_authentication: null, permit_root_login: null, message: 'not read yet' };
  #watcher: LoginWatcher | null = null;
  #dstTimer: NodeJS.Timeout | null = null;
  #sshdTimer: NodeJS.Timeout | null = null;
  #plannedOffset: number | null = null;

  constructor(firewall: FirewallService, enabled: boolean, sinks: FirewallSinks, log: (line: string) => void, options: RemoteOptions = {}) {
    this.#firewall = firewall;
    this.#sinks = sinks;
    this.#log = log;
    this.#options = options;
    this.#enabled = enabled;
    this.#offsetAt = options.offsetAt ?? localOffsetAt;
    this.repo = new RemoteRepo(firewall.db, log);
    firewall.planRemoteWith((now) => this.planned(now));
  }

  /** Reads sshd, puts the chain in and starts the login watcher. */
  async start(): Promise<void> {
    this.#sshd = await readSshd(this.#options.sshdCommand);
    if (!this.#sshd.ok) this.#log(`remote: sshd -T failed: ${this.#sshd.message}`);
    await this.#reload();
    // sshd's port can change while the agent runs (an edited sshd_config): look again every minute.
    this.#sshdTimer = setInterval(() => void this.refreshSshd().catch((error: unknown) => this.#log(`remote: ${String(error)}`)), this.#options.sshdRereadMs ?? 60_000);
    this.#sshdTimer.unref();
    // The watcher reads the SSH brute-force sources: it follows the attack settings as the firewall's pipeline does.
    await this.#firewall.attach({ configure: async () => this.#restartWatcher(), close: async () => undefined });
  }

  /**
   * Reads `sshd -T` again and replans when the ports changed, so the chain guards the port sshd
   * listens on now. A failed read keeps the last good ports however many reads fail in a row (a
   * half-upgraded or half-edited sshd must not open the old port) and shows the failure; with no good
   * reading yet it is shown as it is. Readings run one at a time, so an older one never lands last.
   */
  refreshSshd(): Promise<boolean> {
    const reading = this.#sshdQueue.then(() => this.#refreshSshdOnce());
    this.#sshdQueue = reading.then(() => undefined, () => undefined);
    return reading;
  }

  #sshdQueue: Promise<void> = Promise.resolve();

  async #refreshSshdOnce(): Promise<boolean> {
    const fresh = await readSshd(this.#options.sshdCommand);
    const before = this.#sshd;
    if (!fresh.ok && before.ports.length > 0) {
      this.#sshd = { ...before, ok: false, message: fresh.message };
      return false;
    }
    this.#sshd = fresh;
    const changed = fresh.ports.join(',') !== before.ports.join(',');
    if (changed) {
      this.#log(`remote: sshd's ports are now ${fresh.ports.join(', ') || 'unknown'} (were ${before.ports.join(', ') || 'unknown'})`);
      await this.#reload();
    }
    return changed;
  }

  /** The planner's input: null while the module is off. Common areas are expanded here, as for firewall rules. */
  planned(now: number): PlannedRemote | null {
    if (!this.#enabled) return null;
    const access = this.repo.access();
    const members = this.#firewall.commonAreas.membersById();
    const areas = new Set<string>();
    for (const code of access.areas) {
      const id = commonAreaIdOf(code);
      for (const member of id === null ? [code] : (members.get(id) ?? [])) areas.add(member);
    }
    const offset = this.#offsetAt(now);
    this.#plannedOffset = offset;
    return { ports: this.#sshd.ports, ips: access.ips, areas: [...areas], windows: access.windows, utcOffsetMinutes: offset };
  }

  async setEnabled(enabled: boolean): Promise<void> {
    this.#enabled = enabled;
    await this.#reload();
  }

  /** A new access rule, through the firewall's guard: cutting the administrator's own address off SSH goes on probation. */
  async setAccess(access: RemoteAccess, guard: FirewallGuard | null): Promise<FirewallChange> {
    const change = await this.#firewall.guarded(
      guard,
      () => {
        const before = this.repo.access();
        this.repo.setAccess(access);
        return { changed: 1, undo: () => this.repo.setAccess(before), kernel: () => this.#firewall.refreshRules() };
      },
      this.#enabled ? this.#sshd.ports : [],
    );
    return change;
  }

  bruteforce(): RemoteBruteforce & { seconds: number } {
    const ssh = this.#firewall.settings.attack().ssh_bruteforce;
    // Shown per hour: a firewall window other than an hour is scaled (and the window itself is shown too).
    return { enabled: ssh.enabled, attempts_per_hour: Math.max(1, Math.round((ssh.attempts * hourly) / ssh.seconds)), block_minutes: ssh.block_minutes, seconds: ssh.seconds };
  }

  /** Writes the firewall's SSH brute-force scenario settings: attempts within an hour. */
  async setBruteforce(value: RemoteBruteforce): Promise<void> {
    const settings = this.#firewall.settings.attack();
    settings.ssh_bruteforce = { ...settings.ssh_bruteforce, enabled: value.enabled, attempts: value.attempts_per_hour, seconds: hourly, block_minutes: value.block_minutes };
    this.#firewall.settings.setAttack(settings);
    await this.#firewall.reconfigured();
  }

  view(): RemoteView {
    const access = this.repo.access();
    const now = this.#firewall.now();
    const warnings: RemoteWarning[] = [];
    if (this.#enabled && !access.ips.some((ip) => ip.trim() !== '') && access.areas.length === 0) warnings.push('remote_nothing_authorized');
    if (this.#enabled && !this.#firewall.enforcing) warnings.push('remote_firewall_off');
    return {
      enabled: this.#enabled,
      enforced: this.#enabled && this.#firewall.enforcing && this.#firewall.kernel.state === 'ok' && this.#sshd.ports.length > 0,
      access,
      bruteforce: this.bruteforce(),
      sshd: this.#sshd,
      utc_offset_minutes: this.#offsetAt(now),
      next_offset_change: nextOffsetChange(now, this.#offsetAt),
      warnings,
      computer_name_rule: { available: false, reason: 'remote_computer_name_windows_only' },
    };
  }

  /** An accepted login: an event always (the audit trail), a notice (and so the alert methods) when chosen. */
  announce(login: AcceptedLogin, areaOf: (ip: string) => readonly string[]): void {
    const area = areaOf(login.ip).join(' ') || '-';
    const params = { user: login.user, ip: login.ip, area, method: login.method };
    this.#sinks.event({ kind: 'remote.login', module: 'remote', level: 'info', source: 'sshd', ip: login.ip, account: login.user.slice(0, 64), params });
    if (this.repo.access().notify_login) {
      this.#sinks.notice({ kind: 'remote_login', params, dedupe_key: `remote_login:${login.ip}:${login.user}:${login.at}`.slice(0, 128) });
    }
  }

  /** Module switch, sshd or the clock's offset changed: the firewall plans the chain again, and the watcher follows. */
  async #reload(): Promise<void> {
    await this.#firewall.serial(() => this.#firewall.refreshRules());
    this.#scheduleOffsetReload();
    this.#restartWatcher();
  }

  /** At the next DST switch the windows are converted again (the kernel counts UTC). */
  #scheduleOffsetReload(): void {
    if (this.#dstTimer) clearTimeout(this.#dstTimer);
    this.#dstTimer = null;
    if (!this.#enabled) return;
    const now = this.#firewall.now();
    const next = nextOffsetChange(now, this.#offsetAt);
    if (next === null) return;
    // setTimeout holds at most ~24.8 days: wake up by then and look again.
    const delay = Math.min(next - now + 1000, 2_000_000_000);
    this.#dstTimer = setTimeout(() => void this.checkOffset().catch((error: unknown) => this.#log(`remote: ${String(error)}`)), delay);
    this.#dstTimer.unref();
  }

  /** Replans when the offset differs from the one the kernel's windows were converted with. */
  async checkOffset(): Promise<boolean> {
    const changed = this.#enabled && this.#plannedOffset !== null && this.#offsetAt(this.#firewall.now()) !== this.#plannedOffset;
    if (changed) await this.#firewall.serial(() => this.#firewall.refreshRules());
    this.#scheduleOffsetReload();
    return changed;
  }

  #restartWatcher(): void {
    const old = this.#watcher;
    this.#watcher = null;
    void old?.close();
    if (!this.#enabled) return;
    const ssh = this.#firewall.settings.attack().ssh_bruteforce;
    const sources: LoginSources = {
      files: this.#options.loginSources?.files ?? ssh.log_files,
      journal: this.#options.loginSources?.journal ?? (ssh.journal ? {} : false),
      pollMs: this.#options.loginSources?.pollMs,
    };
    this.#watcher = new LoginWatcher(sources, (login) => this.announce(login, (ip) => this.#firewall.areaOf(ip)), () => this.#firewall.now(), this.#log);
  }

  async close(): Promise<void> {
    if (this.#dstTimer) clearTimeout(this.#dstTimer);
    if (this.#sshdTimer) clearInterval(this.#sshdTimer);
    await this.#watcher?.close();
    this.#watcher = null;
  }
}
