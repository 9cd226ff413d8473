import { lstat } from 'node:fs/promises';
import type { TrojanSettings, WebshellFileResult } from '@rampart/contracts';
import { ScanPool, bytesOfPath, defaultTimeBudgetMs, extensionOf, whitelistMatcher } from '@rampart/webshell';
import type { CloseWriteWatch } from './close-write-watch.ts';

export type WatchFactory = (options: { onFile: (path: string) => void; log?: (line: string) => void }) => CloseWriteWatch;

/** What the watch scans with: the settings, the custom library and the trusted hashes. */
export interface RealtimeConfig {
  /** The module is on and settings.realtime: otherwise nothing is watched. */
  active: boolean;
  dirs: readonly string[];
  settings: TrojanSettings;
  customRuleText: string;
  customHashes: readonly string[];
  trusted: ReadonlySet<string>;
  /** The built-in rule set's version: a reloaded set (the cloud library update) restarts the worker, which compiles it afresh. */
  rulesVersion?: string;
}

/**
 * The real-time watch: files closed after writing under the protected directories are scanned by a
 * warm one-worker pool (never on the agent's thread) and a web shell goes to `onScanned` at once.
 * The pool starts with the watch and is rebuilt when the rules it compiled change.
 */
export class RealtimeScanner {
  readonly #startWatch: WatchFactory;
  readonly #onScanned: (result: WebshellFileResult) => Promise<void>;
  readonly #log: (line: string) => void;
  #watch: CloseWriteWatch | null = null;
  #pool: ScanPool | null = null;
  #poolKey = '';
  #config: RealtimeConfig | null = null;
  #skip: (path: string) => boolean = () => false;
  #extensions = new Set<string>();
  /** Files being scanned now: a second close of the same file while it is scanned is folded into one more scan after it. */
  readonly #busy = new Map<string, boolean>();
  #queue = Promise.resolve();

  constructor(startWatch: WatchFactory, onScanned: (result: WebshellFileResult) => Promise<void>, log: (line: string) => void) {
    this.#startWatch = startWatch;
    this.#onScanned = onScanned;
    this.#log = log;
  }

  /** Applies a new configuration (serialised: two quick changes never race). */
  configure(config: RealtimeConfig): Promise<void> {
    this.#queue = this.#queue.then(() => this.#apply(config)).catch((error: unknown) => this.#log(`trojan watch: ${error instanceof Error ? error.message : String(error)}`));
    return this.#queue;
  }

  async #apply(config: RealtimeConfig): Promise<void> {
    this.#config = config;
    this.#skip = whitelistMatcher(config.settings.whitelist);
    this.#extensions = new Set(config.settings.extensions.map((ext) => ext.toLowerCase()));
    const dirs = config.active ? [...config.dirs] : [];
    if (dirs.length === 0) {
      await this.#watch?.update([]);
      await this.#closePool();
      return;
    }
    const key = JSON.stringify([config.settings.sizeLimitKb, config.customRuleText, config.customHashes, config.rulesVersion ?? '']);
    if (!this.#pool || key !== this.#poolKey) {
      await this.#closePool();
      this.#pool = new ScanPool({
        sizeLimitKb: config.settings.sizeLimitKb,
        timeBudgetMs: defaultTimeBudgetMs,
        ...(config.customRuleText.trim() ? { customRuleText: config.customRuleText } : {}),
        ...(config.customHashes.length ? { customHashes: [...config.customHashes] } : {}),
      }, 1);
      this.#poolKey = key;
      // Warm: the worker loads the parser and compiles the rules before the watch reports anything
      // (a few seconds on a busy machine), so the first file written is scanned within the second too.
      await this.#pool.scan('/dev/null');
    }
    this.#watch ??= this.#startWatch({ onFile: (path) => this.#closed(path), log: this.#log });
    await this.#watch.update(dirs);
  }

  async #closePool(): Promise<void> {
    const pool = this.#pool;
    this.#pool = null;
    this.#poolKey = '';
    await pool?.close();
  }

  status(): { state: 'watching' | 'off' | 'unavailable'; error: string; watched: readonly string[] } {
    return this.#watch?.status() ?? { state: 'off', error: '', watched: [] };
  }

  #closed(path: string): void {
    if (this.#busy.has(path)) {
      this.#busy.set(path, true);
      return;
    }
    this.#busy.set(path, false);
    void this.#scan(path).finally(() => {
      const again = this.#busy.get(path);
      this.#busy.delete(path);
      if (again) this.#closed(path);
    });
  }

  async #scan(path: string): Promise<void> {
    const config = this.#config;
    const pool = this.#pool;
    if (!config || !pool) return;
    if (!this.#extensions.has(extensionOf(path)) || this.#skip(path)) return;
    try {
      const stats = await lstat(bytesOfPath(path)); // an encoded path: a non-UTF-8 name is checked too
      if (!stats.isFile() || stats.size > config.settings.sizeLimitKb * 1024) return;
    } catch {
      return; // gone already (isolated, renamed, deleted)
    }
    const result = await pool.scan(path);
    if (result.status === 'unscanned' || (result.sha256 && config.trusted.has(result.sha256))) return;
    if (result.risk === 'none' || result.risk === 'low') return;
    try {
      await this.#onScanned(result);
    } catch (error) {
      this.#log(`trojan watch: ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async close(): Promise<void> {
    await this.#queue;
    await this.#watch?.close();
    this.#watch = null;
    await this.#closePool();
  }
}
