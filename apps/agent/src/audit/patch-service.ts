import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  aptDirs,
  checkUpdates,
  debChangelogHead,
  debFileName,
  downloadUpdates,
  installUpdates,
  isLockFailure,
  isPermissionFailure,
  parseSimulate,
  patchLevel,
  runApt,
  type AptConfig,
  type AptFailure,
  type PackageDownload,
  type PatchCandidate,
} from '@rampart/audit';
import type { Db } from '@rampart/sqlite';
import type { PatchItem, PatchJobKind, PatchReason, PatchSettings, PatchState, PatchStatus } from '@rampart/contracts';
import { DailySlot } from '../trojan/daily-slot.ts';
import { openPatchDb, readState, writeState } from './patch-db.ts';

/**
 * Patch management in the agent (the audit's `patch` tab). Readings:
 * - Where: `apt` comes from the agent's options: the main entry passes apt's defaults (this host);
 *   tests pass a sandbox (sources, lists, cache, dpkg status and root in a temp dir). An agent
 *   started without it has no patch management: every action is refused with `audit_patch_not_available`.
 * - One apt job at a time, and none while the audit runs or reinforces (`otherBusy`): refused with
 *   the spec's "execution in progress, wait". Before a job starts, `apt-get check` probes dpkg's
 *   lock: another package manager holding it is refused with `audit_patch_locked`.
 * - Jobs run in the background; statuses move as apt reports (download `Get:` lines, APT::Status-Fd
 *   dlstatus/pmstatus/pmerror; each package's own download percentage, DownloadTracker) and are settled from the facts when apt ends: a download is finished
 *   when its .deb is in apt's cache, an install when the package is no longer pending.
 * - The urgency (emergency level) and the changelog's release date are read from the downloaded
 *   .deb (no network call for changelogs).
 * - Auto update: at the set local time each day, a check and then an install of everything.
 */
export interface PatchServiceOptions {
  stateDir: string;
  /** Absent: this agent has no patch management (see above). */
  apt: AptConfig | null;
  log: (line: string) => void;
  now?: () => number;
  /** The audit's run or reinforcement in progress: patch jobs wait for it. */
  otherBusy?: () => boolean;
  /** The minute timer for the auto update; tests call tick(). */
  timers?: boolean;
}

interface CheckInfo {
  checked_at: number | null;
  error: PatchReason | null;
}
type LastJob = NonNullable<PatchState['last_job']>;
type Answer = { started: boolean; refused: string | null };

const defaultSettings: PatchSettings = { auto_update: false, time: '03:00' };
const transient: Partial<Record<PatchStatus, PatchStatus>> = {
  waiting_download: 'download_failed',
  downloading: 'download_failed',
  waiting_install: 'install_failed',
  installing: 'install_failed',
};
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class PatchService {
  readonly db: Db;
  readonly #options: PatchServiceOptions;
  readonly #now: () => number;
  readonly #slot: DailySlot;
  #busy: PatchJobKind | null = null;
  #items: PatchItem[];
  #check: CheckInfo;
  #lastJob: LastJob | null;
  #settings: PatchSettings;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;
  #work: Promise<void> = Promise.resolve();

  constructor(options: PatchServiceOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.db = openPatchDb(path.join(options.stateDir, 'audit-patch.db'));
    this.#settings = readState(this.db, 'settings', defaultSettings);
    this.#check = readState<CheckInfo>(this.db, 'check', { checked_at: null, error: null });
    this.#lastJob = readState<LastJob | null>(this.db, 'last_job', null);
    // A job the agent was stopped in the middle of did not finish.
    this.#items = readState<PatchItem[]>(this.db, 'list', []).map((item) => {
      const settled = transient[item.status];
      return settled ? { ...item, status: settled, progress: null, reason: { key: 'audit_patch_interrupted' } } : item;
    });
    this.#slot = new DailySlot(this.#settings.time, this.#now());
    if (options.timers !== false && options.apt) {
      this.#timer = setInterval(() => void this.tick().catch((error: unknown) => options.log(`patch tick: ${message(error)}`)), 30_000);
      this.#timer.unref();
    }
  }

  get busy(): boolean {
    return this.#busy !== null;
  }

  /** Resolves when the job in flight has finished (tests). */
  idle(): Promise<void> {
    return this.#work;
  }

  status(): PatchState {
    const root = this.#options.apt?.root ?? '/';
    const rebootFile = ['run/reboot-required', 'var/run/reboot-required'].some((file) => existsSync(path.join(root, file)));
    return {
      available: this.#options.apt !== null,
      busy: this.#busy,
      check: { state: this.#busy === 'check' ? 'checking' : this.#check.checked_at === null ? 'never' : 'finished', ...this.#check },
      last_job: this.#lastJob,
      list: this.#items.map((item) => ({ ...item })),
      reboot_required: rebootFile || this.#items.some((item) => item.status === 'install_finished'),
      settings: { ...this.#settings },
    };
  }

  setSettings(settings: PatchSettings): PatchSettings {
    this.#settings = { ...settings };
    this.#slot.reset(settings.time, this.#now());
    writeState(this.db, 'settings', this.#settings);
    return { ...this.#settings };
  }

  #save(): void {
    if (this.#closed) return;
    writeState(this.db, 'list', this.#items);
    writeState(this.db, 'check', this.#check);
    writeState(this.db, 'last_job', this.#lastJob);
  }

  /** Takes the one job slot, after the refusals and apt's lock probe; null when it may start. */
  async #reserve(kind: PatchJobKind): Promise<string | null> {
    const apt = this.#options.apt;
    if (!apt) return 'audit_patch_not_available';
    if (this.#busy || this.#options.otherBusy?.()) return 'audit_execution_in_progress';
    this.#busy = kind;
    // `apt-get check` takes dpkg's lock and lets it go at once: a fast probe for another apt or dpkg.
    const probe = await runApt('apt-get', ['check'], apt);
    if (probe.code !== 0 && (isLockFailure(probe.stderr) || isPermissionFailure(probe.stderr))) {
      this.#busy = null;
      return isPermissionFailure(probe.stderr) ? 'audit_patch_needs_root' : 'audit_patch_locked';
    }
    return null;
  }

  #run(kind: PatchJobKind, account: string, job: (apt: AptConfig) => Promise<void>): void {
    if (kind !== 'check') this.#lastJob = { kind, account, started_at: this.#now(), finished_at: null, error: null };
    this.#work = job(this.#options.apt!)
      .catch((error: unknown) => {
        this.#options.log(`patch ${kind} failed: ${message(error)}`);
        const reason = { key: kind === 'check' ? 'audit_patch_check_failed' : `audit_patch_${kind}_failed`, values: { error: message(error).slice(0, 300) } };
        if (kind === 'check') this.#check = { ...this.#check, error: reason };
        else if (this.#lastJob) this.#lastJob = { ...this.#lastJob, error: reason };
        this.#items = this.#items.map((item) => (transient[item.status] ? { ...item, status: transient[item.status]!, progress: null, reason } : item));
      })
      .finally(() => {
        if (this.#lastJob && this.#lastJob.finished_at === null && kind !== 'check') this.#lastJob = { ...this.#lastJob, finished_at: this.#now() };
        this.#busy = null;
        this.#save();
      });
  }

  async check(account: string): Promise<Answer> {
    const refused = await this.#reserve('check');
    if (refused) return { started: false, refused };
    this.#run('check', account, (apt) => this.#checkJob(apt));
    return { started: true, refused: null };
  }

  async #checkJob(apt: AptConfig): Promise<void> {
    const outcome = await checkUpdates(apt);
    if (!outcome.ok) {
      this.#check = { ...this.#check, error: this.#reason('check', outcome) };
      return;
    }
    const known = new Map(this.#items.map((item) => [`${item.name}=${item.new_version}`, item]));
    this.#items = outcome.candidates.map((c) => this.#toItem(c, known.get(`${c.name}=${c.to}`)));
    this.#check = { checked_at: this.#now(), error: null };
  }

  #toItem(c: PatchCandidate, before: PatchItem | undefined): PatchItem {
    // What a download learned from the changelog stays while the version is the same.
    const urgency = before?.urgency ?? null;
    const downloaded = before?.status === 'download_finished';
    return {
      name: c.name,
      arch: c.arch,
      current_version: c.from,
      new_version: c.to,
      origin: c.origins.join(', '),
      level: patchLevel(c.origins, urgency),
      urgency,
      description: c.description,
      size: c.size,
      installed_size_kib: c.installedSizeKib,
      release_date: before?.release_date ?? c.releaseDate,
      status: downloaded ? 'download_finished' : 'waiting_update',
      progress: null,
      reason: null,
    };
  }

  #reason(kind: PatchJobKind, failure: AptFailure): PatchReason {
    if (failure.locked) return { key: 'audit_patch_locked' };
    return { key: `audit_patch_${kind === 'check' ? 'check' : kind}_failed`, values: { error: failure.error } };
  }

  /** The named pending updates (all when null), or the refusal of an unknown or empty selection. */
  #targets(names: readonly string[] | null): { names: Set<string> } | { refused: string } {
    if (this.#check.checked_at === null) return { refused: 'audit_patch_no_check' };
    const pending = this.#items.filter((item) => item.status !== 'install_finished');
    if (names === null) return pending.length > 0 ? { names: new Set(pending.map((item) => item.name)) } : { refused: 'audit_patch_nothing_selected' };
    const known = new Set(pending.map((item) => item.name));
    if (names.length === 0) return { refused: 'audit_patch_nothing_selected' };
    if (names.some((name) => !known.has(name))) return { refused: 'audit_patch_unknown_package' };
    return { names: new Set(names) };
  }

  #set(names: ReadonlySet<string>, change: (item: PatchItem) => Partial<PatchItem> | null): void {
    this.#items = this.#items.map((item) => {
      if (!names.has(item.name)) return item;
      const patch = change(item);
      return patch ? { ...item, ...patch } : item;
    });
  }

  async download(names: readonly string[] | null, account: string): Promise<Answer> {
    return this.#startJob('download', names, account);
  }

  async install(names: readonly string[] | null, account: string): Promise<Answer> {
    return this.#startJob('install', names, account);
  }

  async #startJob(kind: 'download' | 'install', names: readonly string[] | null, account: string): Promise<Answer> {
    if (!this.#options.apt) return { started: false, refused: 'audit_patch_not_available' };
    if (this.#busy || this.#options.otherBusy?.()) return { started: false, refused: 'audit_execution_in_progress' };
    const targets = this.#targets(names);
    if ('refused' in targets) return { started: false, refused: targets.refused };
    const refused = await this.#reserve(kind);
    if (refused) return { started: false, refused };
    this.#set(targets.names, (item) => ({
      status: kind === 'install' && item.status === 'download_finished' ? 'waiting_install' : 'waiting_download',
      progress: null,
      reason: null,
    }));
    this.#save();
    const selection = names === null ? null : [...targets.names];
    this.#run(kind, account, (apt) => (kind === 'download' ? this.#downloadJob(apt, targets.names, selection) : this.#installJob(apt, targets.names, selection)));
    return { started: true, refused: null };
  }

  /** Each package's own download state: a fetched one shows finished while the others go on. */
  #downloads = (targets: ReadonlySet<string>) => (packages: PackageDownload[]) => {
    for (const p of packages) {
      if (!targets.has(p.name)) continue;
      this.#set(new Set([p.name]), (item) => {
        // Once dpkg has it (install job), download news is late.
        if (item.status !== 'waiting_download' && item.status !== 'downloading' && item.status !== 'download_finished') return null;
        return p.state === 'finished' ? { status: 'download_finished', progress: 100 } : { status: 'downloading', progress: p.percent };
      });
    }
  };

  async #downloadJob(apt: AptConfig, targets: ReadonlySet<string>, selection: string[] | null): Promise<void> {
    const outcome = await downloadUpdates(apt, selection, { downloads: this.#downloads(targets) });
    const failure = outcome.ok ? null : this.#reason('download', outcome);
    const { archives } = await aptDirs(apt);
    for (const item of this.#items.filter((i) => targets.has(i.name))) {
      const deb = path.join(archives, debFileName(item.name, item.new_version, item.arch));
      if (!existsSync(deb)) {
        this.#set(new Set([item.name]), () => ({ status: 'download_failed', progress: null, reason: failure ?? { key: 'audit_patch_not_downloaded' } }));
        continue;
      }
      const head = await debChangelogHead(deb, item.name);
      const origins = item.origin.split(', ');
      this.#set(new Set([item.name]), () => ({
        status: 'download_finished',
        progress: 100,
        reason: null,
        urgency: head.urgency,
        level: patchLevel(origins, head.urgency),
        release_date: head.date ?? item.release_date,
      }));
    }
    if (failure && this.#lastJob) this.#lastJob = { ...this.#lastJob, error: failure };
  }

  async #installJob(apt: AptConfig, targets: ReadonlySet<string>, selection: string[] | null): Promise<void> {
    const errors = new Map<string, string>();
    const outcome = await installUpdates(apt, selection, {
      downloads: this.#downloads(targets),
      installing: (pkg, percent) => {
        // dpkg has started: every download is done.
        const fetched: readonly PatchStatus[] = ['downloading', 'waiting_download', 'download_finished'];
        this.#set(targets, (item) => (fetched.includes(item.status) ? { status: 'waiting_install', progress: null } : null));
        if (targets.has(pkg) && !errors.has(pkg)) this.#set(new Set([pkg]), () => ({ status: 'installing', progress: percent }));
      },
      failed: (pkg, text) => {
        errors.set(pkg, text);
        if (targets.has(pkg)) this.#set(new Set([pkg]), () => ({ status: 'install_failed', progress: null, reason: { key: 'audit_patch_install_failed', values: { error: text.slice(0, 300) } } }));
      },
    });
    const failure = outcome.ok ? null : this.#reason('install', outcome);
    // What is still pending after apt ended was not installed.
    const simulate = await runApt('apt-get', ['-s', 'dist-upgrade'], apt);
    const pending = simulate.code === 0 ? new Map(parseSimulate(simulate.stdout).map((p) => [p.name, p.to])) : null;
    this.#set(targets, (item) => {
      const stillPending = pending ? pending.get(item.name) === item.new_version : !outcome.ok;
      if (!stillPending) return { status: 'install_finished', progress: 100, reason: null };
      if (item.status === 'install_failed') return null;
      return { status: 'install_failed', progress: null, reason: failure ?? { key: 'audit_patch_still_pending' } };
    });
    if (failure && this.#lastJob) this.#lastJob = { ...this.#lastJob, error: failure };
  }

  /** The minute timer: at the set time of day, a check and then an install of every pending update. */
  async tick(): Promise<void> {
    if (!this.#settings.auto_update || !this.#slot.due(this.#now())) return;
    const checked = await this.check('auto_update');
    if (!checked.started) {
      this.#options.log(`patch auto update skipped: ${checked.refused}`);
      return;
    }
    await this.#work;
    if (this.#check.error || !this.#items.some((item) => item.status !== 'install_finished')) return;
    const installed = await this.install(null, 'auto_update');
    if (!installed.started) this.#options.log(`patch auto update install skipped: ${installed.refused}`);
    await this.#work;
  }

  close(): void {
    if (this.#closed) return;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    // An apt run in flight is not waited for (an install can take minutes); its end is not recorded.
    this.#closed = true;
    this.db.close();
  }
}
