import { existsSync } from 'node:fs';
import { realpath, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import {
  isFlaggedRisk,
  type EventInput,
  type TrojanChange,
  type TrojanDir,
  type TrojanHandled,
  type TrojanResultAction,
  type TrojanScan,
  type TrojanScanKind,
  type TrojanSettings,
  type TrojanStatus,
  type WebshellFileResult,
} from '@rampart/contracts';
import type { Db } from '@rampart/sqlite';
import { builtinRuleSet, bytesOfPath, compileCustomRules, parseHashList, reloadBuiltinRuleSet } from '@rampart/webshell';
import type { DiscoveryCommands } from '../website/discovered-sites.ts';
import { startCloseWriteWatch } from './close-write-watch.ts';
import { DailySlot } from './daily-slot.ts';
import { checkProtectedDir, isRefusedDir, realpathEncoded } from './dir-check.ts';
import { checkSameFile } from './file-check.ts';
import { Quarantine } from './quarantine.ts';
import { RealtimeScanner, type WatchFactory } from './realtime.ts';
import { RunningScan } from './scan-runner.ts';
import { leadingFinding, ScansRepo } from './scans-repo.ts';
import { discoverSiteRoots } from './site-roots.ts';
import { openTrojanDb } from './trojan-db.ts';
import { TrojanRepo, type StoredTrojanDir } from './trojan-repo.ts';
import { watchRefusal } from './watch-list.ts';

export interface TrojanOptions {
  /** The clock of scans, results and the daily schedule (tests drive it). */
  now?: () => number;
  /** The minute timer that fires the scheduled scan and the daily quarantine sweep; tests call tick(). */
  timers?: boolean;
  /** The close-write watch (default: inotifywait, close-write-watch.ts). */
  startWatch?: WatchFactory;
  /** Where the local nginx/Apache sites are asked (tests give recorded output). */
  discovery?: DiscoveryCommands;
  /** Worker threads of a scan (default 2). */
  scanWorkers?: number;
  /** How often a running scan's progress is saved (default 2 s). */
  saveEveryMs?: number;
}

type EventSink = (input: EventInput) => void;
type Source = 'realtime' | 'scan' | 'audit' | 'manual';

const dayMs = 86_400_000;
const ok = (ids: number[], failed: Record<string, string> = {}): TrojanChange => ({ changed: ids.length, ids, refused: null, detail: '', failed });
export const refusedChange = (key: string, detail = ''): TrojanChange => ({ changed: 0, ids: [], refused: key, detail, failed: {} });
const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The stored library's hashes as scans compare them: lowercase, comments left out (the list was parsed before it was saved). */
const customHashes = (lines: readonly string[]): string[] => {
  const parsed = parseHashList(lines);
  return parsed.ok ? [...parsed.hashes] : [];
};

/**
 * Trojan (web-shell) protection: protected directories, settings, the custom library and trusted
 * hashes in <stateDir>/trojan.db; scans through the engine's worker pool (one at a time); the
 * real-time watch; isolated files in the quarantine. Everything an administrator changes is an
 * operation event; every web shell found is a security event.
 */
export class TrojanService {
  readonly db: Db;
  readonly repo: TrojanRepo;
  readonly scans: ScansRepo;
  readonly quarantine: Quarantine;
  readonly now: () => number;
  readonly #event: EventSink;
  readonly #log: (line: string) => void;
  readonly #options: TrojanOptions;
  readonly #realtime: RealtimeScanner;
  readonly #trusted: Set<string>;
  readonly #daily: DailySlot;
  #enabled: boolean;
  #running: RunningScan | null = null;
  #timer: NodeJS.Timeout | null = null;
  #lastSweepDay = -1;
  #ruleSetVersion: string | null = null;
  /** Set when a reload brought another rule-set version: the watch's worker restarts to compile it. */
  #reloadedVersion = '';

  private constructor(stateDir: string, enabled: boolean, event: EventSink, log: (line: string) => void, options: TrojanOptions) {
    this.now = options.now ?? Date.now;
    this.db = openTrojanDb(path.join(stateDir, 'trojan.db'));
    this.repo = new TrojanRepo(this.db);
    this.scans = new ScansRepo(this.db);
    this.quarantine = Quarantine.open(stateDir, this.now);
    this.#event = event;
    this.#log = log;
    this.#options = options;
    this.#enabled = enabled;
    this.#trusted = this.repo.trusted();
    this.#daily = new DailySlot(this.repo.settings().schedule.time, this.now());
    const listFile = path.join(stateDir, 'trojan-watch.list');
    this.#realtime = new RealtimeScanner(options.startWatch ?? ((watch) => startCloseWriteWatch({ ...watch, listFile })), (result) => this.#watchFound(result), log);
  }

  static async open(stateDir: string, enabled: boolean, event: EventSink, log: (line: string) => void, options: TrojanOptions = {}): Promise<TrojanService> {
    const service = new TrojanService(stateDir, enabled, event, log, options);
    // A scan the agent was running when it stopped ended then.
    const ended = service.scans.endInterrupted(service.now());
    if (ended) log(`trojan: ${ended} scan(s) interrupted by the last stop marked as ended`);
    // The watch's scan worker warms up in the background: the agent answers at once.
    service.#watchLater();
    if (options.timers !== false) {
      service.#timer = setInterval(() => void service.tick().catch((error: unknown) => log(`trojan tick: ${message(error)}`)), 30_000);
      service.#timer.unref();
    }
    return service;
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  async setEnabled(enabled: boolean): Promise<void> {
    this.#enabled = enabled;
    this.#watchLater();
  }

  /**
   * Reconfigures the watch in the background (serialised in RealtimeScanner): a warm scan worker and
   * inotify's watches on a large tree take seconds, and no call waits for them; `trojan.status` says
   * when the watch is on.
   */
  #watchLater(): void {
    this.applyWatch().catch((error: unknown) => this.#log(`trojan watch: ${message(error)}`));
  }

  /** Makes the watch match the switch, the settings, the enabled existing directories and the library. */
  async applyWatch(): Promise<void> {
    const settings = this.repo.settings();
    const library = this.repo.library();
    await this.#realtime.configure({
      active: this.#enabled && settings.realtime,
      dirs: this.repo.dirs().filter((dir) => dir.enabled && existsSync(bytesOfPath(dir.path))).map((dir) => dir.path),
      settings,
      customRuleText: library.rules,
      customHashes: customHashes(library.hashes),
      trusted: this.#trusted,
      rulesVersion: this.#reloadedVersion,
    });
  }

  /**
   * The cloud library update: the built-in rule files loaded and compiled again and the custom
   * library compiled again; the watch's worker restarts with them when the version changed. A rule
   * file that fails to load throws, and the set in use stays.
   */
  reloadRules(): { before: string; after: string; custom: { ok: true; rules: number; hashes: number } | { ok: false; error: string } } {
    const before = this.#ruleSetVersion ?? builtinRuleSet().version;
    const after = reloadBuiltinRuleSet().version;
    this.#ruleSetVersion = after;
    if (before !== after) this.#reloadedVersion = after;
    const library = this.library();
    const compiled = library.rules.trim() ? compileCustomRules(library.rules) : null;
    if (before !== after) this.#watchLater();
    if (compiled && !compiled.ok) return { before, after, custom: { ok: false, error: compiled.error } };
    return { before, after, custom: { ok: true, rules: library.ruleCount, hashes: library.hashCount } };
  }

  /** The minute timer: the scheduled scan at its time of day, the daily quarantine sweep and result cap. */
  async tick(): Promise<void> {
    const now = this.now();
    const settings = this.repo.settings();
    const day = Math.floor(now / dayMs);
    if (day !== this.#lastSweepDay) {
      this.#lastSweepDay = day;
      const swept = this.quarantine.sweep(settings.isolateRetentionDays);
      if (swept) this.#log(`trojan: ${swept} isolated file(s) older than ${settings.isolateRetentionDays} days deleted`);
      this.scans.trimResults();
    }
    this.#daily.reset(settings.schedule.time, now);
    if (this.#daily.due(now) && settings.schedule.enabled && this.#enabled) {
      const started = await this.startScan('scheduled', [], '');
      if (started.refused) this.#log(`trojan: scheduled scan not started: ${started.refused}`);
    }
  }

  // Settings

  settings(): TrojanSettings {
    return this.repo.settings();
  }

  async setSettings(settings: TrojanSettings, account: string): Promise<TrojanChange> {
    const before = this.repo.settings();
    const changedKeys = (Object.keys(settings) as (keyof TrojanSettings)[]).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(settings[key]));
    this.repo.setSettings(settings);
    this.#daily.reset(settings.schedule.time, this.now());
    if (changedKeys.length) this.#operation('trojan.settings_changed', account, { what: changedKeys.join(', ') });
    this.#watchLater();
    return ok(changedKeys.length ? [1] : []);
  }

  // Protected directories

  #dirState(dir: StoredTrojanDir, watched: ReadonlySet<string>): TrojanDir['state'] {
    if (!dir.enabled) return 'off';
    if (!existsSync(bytesOfPath(dir.path))) return 'missing';
    // A folder inside a watched one is covered by the recursive watch, whatever its own name.
    if ([...watched].some((root) => dir.path === root || dir.path.startsWith(`${root}/`))) return 'watching';
    return watchRefusal(dir.path) ? 'unwatchable' : 'not_watched';
  }

  dirPage(keyword: string | undefined, offset: number, limit: number): { total: number; list: TrojanDir[] } {
    const page = this.repo.dirPage(keyword, offset, limit);
    const watched = new Set(this.#realtime.status().watched);
    return { total: page.total, list: page.list.map((dir) => ({ ...dir, state: this.#dirState(dir, watched) })) };
  }

  /** All or nothing: one refused directory adds none of them. */
  async addDirs(dirs: readonly { path: string; remark: string; site: string }[], account: string): Promise<TrojanChange> {
    const checked: { path: string; remark: string; site: string }[] = [];
    for (const dir of dirs) {
      const check = await checkProtectedDir(dir.path);
      if (!check.ok) return refusedChange(check.key, check.detail);
      if (this.repo.dirByPath(check.path) || checked.some((other) => other.path === check.path)) return refusedChange('trojan_dir_duplicate', dir.path);
      checked.push({ ...dir, path: check.path });
    }
    const ids = checked.map((dir) => this.repo.insertDir(dir, this.now()));
    this.#operation('trojan.dirs_changed', account, { action: 'add', what: checked.map((dir) => dir.path).join(', ') });
    this.#watchLater();
    return ok(ids);
  }

  editDir(id: number, remark: string, account: string): TrojanChange {
    const dir = this.repo.dir(id);
    if (!dir) return refusedChange('trojan_dir_not_found');
    if (dir.remark === remark) return ok([]);
    this.repo.setRemark(id, remark);
    this.#operation('trojan.dirs_changed', account, { action: 'edit', what: `${dir.path}: ${remark}` });
    return ok([id]);
  }

  async setDirsEnabled(ids: readonly number[], enabled: boolean, account: string): Promise<TrojanChange> {
    const paths = ids.map((id) => this.repo.dir(id)?.path).filter((p): p is string => p !== undefined);
    const changed = this.repo.setEnabled(ids, enabled);
    if (changed.length) {
      this.#operation('trojan.dirs_changed', account, { action: enabled ? 'enable' : 'disable', what: paths.join(', ') });
      this.#watchLater();
    }
    return ok(changed);
  }

  async deleteDirs(ids: readonly number[], account: string): Promise<TrojanChange> {
    const paths = ids.map((id) => this.repo.dir(id)?.path).filter((p): p is string => p !== undefined);
    const gone = this.repo.deleteDirs(ids);
    if (gone.length) {
      this.#operation('trojan.dirs_changed', account, { action: 'delete', what: paths.join(', ') });
      this.#watchLater();
    }
    return ok(gone);
  }

  async discover(): Promise<{ site: string; path: string; protected: boolean }[]> {
    const roots = await discoverSiteRoots(this.#options.discovery);
    const protectedPaths = new Set(this.repo.dirs().map((dir) => dir.path));
    const out = [];
    for (const root of roots) {
      const resolved = await realpath(root.path).catch(() => root.path);
      out.push({ ...root, protected: protectedPaths.has(resolved) || protectedPaths.has(root.path) });
    }
    return out;
  }

  // The custom library

  library(): { rules: string; hashes: string[]; ruleCount: number; hashCount: number } {
    const library = this.repo.library();
    return { ...library, ruleCount: library.rules.trim() ? ruleCount(library.rules) : 0, hashCount: customHashes(library.hashes).length };
  }

  /** Compiled and parsed before anything is stored: a refused library changes nothing. */
  async setLibrary(library: { rules: string; hashes: string[] }, account: string): Promise<TrojanChange> {
    if (library.rules.trim()) {
      const compiled = compileCustomRules(library.rules);
      if (!compiled.ok) return refusedChange('trojan_rules_invalid', compiled.error);
    }
    const parsed = parseHashList(library.hashes);
    if (!parsed.ok) return refusedChange('trojan_hash_invalid', parsed.error);
    this.repo.setLibrary(library);
    this.#operation('trojan.library_changed', account, { rules: ruleCount(library.rules), hashes: parsed.hashes.size });
    this.#watchLater();
    return ok([1]);
  }

  // Scans

  runningScan(): TrojanScan | null {
    return this.#running ? { ...this.#running.scan } : null;
  }

  scan(id: number): TrojanScan | null {
    if (this.#running?.scan.id === id) return { ...this.#running.scan };
    return this.scans.scan(id);
  }

  /** Resolves audit paths (files or directories): each must exist and not be a virtual file system. */
  async #auditRoots(paths: readonly string[]): Promise<{ roots: string[] } | { refused: string; detail: string }> {
    const roots: string[] = [];
    for (const input of paths) {
      let resolved: string;
      try {
        resolved = await realpathEncoded(input);
        const stats = await stat(bytesOfPath(resolved));
        if (!stats.isFile() && !stats.isDirectory()) return { refused: 'trojan_path_missing', detail: input };
      } catch {
        return { refused: 'trojan_path_missing', detail: input };
      }
      if (isRefusedDir(resolved)) return { refused: 'trojan_path_refused', detail: input };
      if (!roots.includes(resolved)) roots.push(resolved);
    }
    return { roots };
  }

  async startScan(kind: TrojanScanKind, paths: readonly string[], account: string): Promise<{ scan: TrojanScan | null; refused: string | null; detail?: string }> {
    if (this.#running) return { scan: this.runningScan(), refused: 'trojan_scan_running' };
    let roots: string[];
    if (kind === 'audit') {
      if (paths.length === 0) return { scan: null, refused: 'trojan_paths_required' };
      const checked = await this.#auditRoots(paths);
      if ('refused' in checked) return { scan: null, refused: checked.refused, detail: checked.detail };
      roots = checked.roots;
    } else {
      roots = this.repo.dirs().filter((dir) => dir.enabled && existsSync(bytesOfPath(dir.path))).map((dir) => dir.path);
      if (roots.length === 0) return { scan: null, refused: 'trojan_no_dirs' };
    }
    // Checked again after the awaits above: two starts at once must not both run.
    if (this.#running) return { scan: this.runningScan(), refused: 'trojan_scan_running' };
    const settings = this.repo.settings();
    const library = this.repo.library();
    const scan = this.scans.createScan(kind, roots, account, this.now());
    const source: Source = kind === 'audit' ? 'audit' : 'scan';
    const running = new RunningScan({
      scan,
      roots,
      sizeLimitKb: settings.sizeLimitKb,
      extensions: settings.extensions,
      whitelist: settings.whitelist,
      customRuleText: library.rules,
      customHashes: customHashes(library.hashes),
      trusted: this.#trusted,
      workers: this.#options.scanWorkers ?? 2,
      now: this.now,
      saveEveryMs: this.#options.saveEveryMs,
      log: this.#log,
      save: (progress) => this.scans.saveScan(progress),
      onReported: async (result) => {
        if (!isFlaggedRisk(result.risk)) {
          this.scans.addResult(scan.id, result, 'recorded', null, this.now());
          return;
        }
        // Audit results wait for the administrator; full and scheduled scans handle per the settings.
        const outcome = kind === 'audit' ? { handled: 'pending' as const, isolateId: null } : await this.#autoHandle(result, source, settings);
        this.scans.addResult(scan.id, result, outcome.handled, outcome.isolateId, this.now());
        this.#detected(result, outcome.handled, source);
      },
    });
    this.#running = running;
    if (kind !== 'scheduled') this.#operation('trojan.scan_started', account, { scan_kind: kind, paths: roots.join(', ') });
    void running.finished.then(() => {
      if (this.#running === running) this.#running = null;
      this.scans.trimResults();
    });
    return { scan: { ...scan }, refused: null };
  }

  async cancelScan(id: number, account: string): Promise<TrojanChange> {
    const running = this.#running;
    if (!running || running.scan.id !== id) return refusedChange(this.scans.scan(id) ? 'trojan_scan_not_running' : 'trojan_scan_not_found');
    running.cancel();
    await running.finished;
    this.#operation('trojan.scan_cancelled', account, { scan_kind: running.scan.kind, done: running.scan.done, total: running.scan.total });
    return ok([id]);
  }

  // Handling

  /** What the watch and full or scheduled scans do with a web shell by themselves. */
  async #autoHandle(result: WebshellFileResult, source: Source, settings: TrojanSettings): Promise<{ handled: TrojanHandled; isolateId: number | null }> {
    if (settings.handling === 'record') return { handled: 'recorded', isolateId: null };
    const done = await this.#act(settings.handling, result.path, result, source);
    return done.ok ? { handled: done.handled, isolateId: done.isolateId } : { handled: 'failed', isolateId: null };
  }

  async #act(
    action: 'isolate' | 'delete',
    filePath: string,
    result: Pick<WebshellFileResult, 'risk' | 'findings' | 'status' | 'unscannedReason'>,
    source: Source,
  ): Promise<{ ok: true; handled: TrojanHandled; isolateId: number | null } | { ok: false; key: string; detail: string }> {
    if (action === 'delete') {
      try {
        await unlink(bytesOfPath(filePath)); // an encoded path (@rampart/webshell): a non-UTF-8 name is its bytes
        return { ok: true, handled: 'deleted', isolateId: null };
      } catch (error) {
        return { ok: false, key: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'trojan_file_gone' : 'trojan_delete_failed', detail: message(error) };
      }
    }
    const { reason, rule } = leadingFinding(result);
    const isolated = this.quarantine.isolate(filePath, { risk: result.risk, reason, rule, source, findings: result.findings });
    if (!isolated.ok) return { ok: false, key: isolated.key, detail: isolated.detail };
    return { ok: true, handled: 'isolated', isolateId: isolated.item.id };
  }

  /** The watch found a web shell: handled per the settings, stored with scan id null, reported. */
  async #watchFound(result: WebshellFileResult): Promise<void> {
    const outcome = await this.#autoHandle(result, 'realtime', this.repo.settings());
    this.scans.addResult(null, result, outcome.handled, outcome.isolateId, this.now());
    this.#detected(result, outcome.handled, 'realtime');
  }

  /** The administrator's answer to results: each file is checked to be the one scanned before anything is done. */
  async handleResults(ids: readonly number[], action: TrojanResultAction, account: string): Promise<TrojanChange> {
    const done: number[] = [];
    const failed: Record<string, string> = {};
    let firstFailure: { key: string; detail: string } | null = null;
    for (const id of [...new Set(ids)]) {
      const fail = (key: string, detail: string): void => {
        failed[String(id)] = key;
        firstFailure ??= { key, detail };
      };
      const result = this.scans.result(id);
      if (!result) { fail('trojan_result_not_found', String(id)); continue; }
      if (!isFlaggedRisk(result.risk)) { fail('trojan_result_not_flagged', result.path); continue; }
      const check = await checkSameFile(result.path, result.sha256);
      if (!check.ok) { fail(check.key, result.path); continue; }
      if (action === 'trust') {
        this.repo.trust(result.sha256, result.path, account, this.now());
        this.#trusted.add(result.sha256);
        this.scans.setHandled(id, 'trusted', null);
      } else if (action === 'record') {
        this.scans.setHandled(id, 'recorded', null);
      } else {
        const acted = await this.#act(action, result.path, { ...result, status: 'scanned' }, 'manual');
        if (!acted.ok) { fail(acted.key, result.path); continue; }
        this.scans.setHandled(id, acted.handled, acted.isolateId);
      }
      done.push(id);
      this.#operation('trojan.result_handled', account, { handling: action, path: result.path });
    }
    const failure = firstFailure as { key: string; detail: string } | null;
    if (done.length === 0 && failure) return { ...refusedChange(failure.key, failure.detail), failed };
    return ok(done, failed);
  }

  // Isolated files

  restoreIsolated(ids: readonly number[], overwrite: boolean, account: string): TrojanChange {
    const done: number[] = [];
    const failed: Record<string, string> = {};
    const exists: string[] = [];
    let first: { key: string; detail: string } | null = null;
    for (const id of [...new Set(ids)]) {
      const item = this.quarantine.get(id);
      const restored = this.quarantine.restore(id, overwrite);
      if (!restored.ok) {
        failed[String(id)] = restored.key;
        if (restored.key === 'trojan_restore_exists') exists.push(restored.detail);
        first ??= { key: restored.key, detail: restored.detail };
        continue;
      }
      // Putting a file back says it is not a web shell: its bytes are trusted, or the watch (or the
      // next scan) would take it away again at once.
      if (item?.sha256) {
        this.repo.trust(item.sha256, restored.path, account, this.now());
        this.#trusted.add(item.sha256);
      }
      done.push(id);
      this.#operation('trojan.isolate_restored', account, { path: restored.path });
    }
    const failure = first as { key: string; detail: string } | null;
    if (done.length === 0 && failure) return { ...refusedChange(failure.key, failure.key === 'trojan_restore_exists' ? exists.join(', ') : failure.detail), failed };
    return { ...ok(done, failed), detail: exists.join(', ') };
  }

  deleteIsolated(ids: readonly number[], account: string): TrojanChange {
    const done: number[] = [];
    const failed: Record<string, string> = {};
    for (const id of [...new Set(ids)]) {
      const item = this.quarantine.get(id);
      if (!item || !this.quarantine.remove(id)) { failed[String(id)] = 'trojan_isolated_not_found'; continue; }
      done.push(id);
      this.#operation('trojan.isolate_deleted', account, { path: item.originalPath });
    }
    if (done.length === 0) return { ...refusedChange('trojan_isolated_not_found'), failed };
    return ok(done, failed);
  }

  // Status

  status(): TrojanStatus {
    const settings = this.repo.settings();
    const watch = this.#realtime.status();
    const library = this.library();
    this.#ruleSetVersion ??= builtinRuleSet().version;
    const active = this.#enabled && settings.realtime;
    return {
      enabled: this.#enabled,
      watch: active ? watch.state : 'off',
      watchError: active ? watch.error : '',
      watchedDirs: active ? watch.watched.length : 0,
      ruleSetVersion: this.#ruleSetVersion,
      customRules: library.ruleCount,
      customHashes: library.hashCount,
      isolated: this.quarantine.count(),
      found24h: this.scans.foundSince(this.now() - dayMs),
      running: this.runningScan(),
      lastScan: this.scans.lastScan(),
    };
  }

  // Events

  #operation(kind: string, account: string, params: Record<string, string | number>): void {
    this.#event({ kind, module: 'trojan', level: 'info', source: account ? 'console' : 'agent', account, params: { account, ...clip(params) } });
  }

  #detected(result: WebshellFileResult, handled: TrojanHandled, source: Source): void {
    const { reason, rule } = leadingFinding(result);
    this.#event({
      kind: 'trojan.detected', module: 'trojan', level: result.risk === 'high' ? 'critical' : 'warning', source: 'agent',
      params: clip({ path: result.path, risk: result.risk, reason, rule, handled, found_by: source, sha256: result.sha256 }),
      detail: result.findings.slice(0, 5).map((finding) => `${finding.reason}${finding.rule ? ` ${finding.rule}` : ''} @${finding.offset}: ${finding.evidence}`).join('\n').slice(0, 4000),
    });
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    const running = this.#running;
    if (running) {
      running.cancel();
      await running.finished;
    }
    await this.#realtime.close();
    this.quarantine.close();
    this.db.close();
  }
}

function ruleCount(rules: string): number {
  return (rules.match(/^\s*(?:private\s+|global\s+)*rule\s+\w+/gm) ?? []).length;
}

function clip(params: Record<string, string | number>): Record<string, string | number> {
  return Object.fromEntries(Object.entries(params).map(([key, value]) => [key, typeof value === 'string' ? value.slice(0, 1000) : value]));
}
