import { isFlaggedRisk, type TrojanScan, type WebshellFileResult } from '@rampart/contracts';
import { scanTree } from '@rampart/webshell';

/** What one scan needs from the service: the engine's options and where results and progress go. */
export interface ScanRun {
  scan: TrojanScan;
  roots: readonly string[];
  sizeLimitKb: number;
  extensions: readonly string[];
  whitelist: readonly string[];
  customRuleText: string;
  customHashes: readonly string[];
  /** SHA-256 values the administrator trusted: such files are clean, wherever they are. */
  trusted: ReadonlySet<string>;
  workers: number;
  now: () => number;
  /** A reported file (flagged, low or unscanned; trusted ones never): the service stores and handles it. */
  onReported: (result: WebshellFileResult) => Promise<void>;
  /** Progress to keep: called every `saveEveryMs` and at the end. */
  save: (scan: TrojanScan) => void;
  saveEveryMs?: number;
  log: (line: string) => void;
}

/**
 * One running scan: the engine's worker pool does the files (the agent's event loop only walks
 * directories and stores reported files); progress lives in `scan` and is saved now and then and at
 * the end; `cancel()` stops it as `end`.
 */
export class RunningScan {
  readonly scan: TrojanScan;
  readonly finished: Promise<TrojanScan>;
  readonly #controller = new AbortController();

  constructor(run: ScanRun) {
    this.scan = run.scan;
    this.finished = this.#run(run);
  }

  cancel(): void {
    this.#controller.abort();
  }

  async #run(run: ScanRun): Promise<TrojanScan> {
    const scan = this.scan;
    const timer = setInterval(() => run.save({ ...scan }), run.saveEveryMs ?? 2000);
    timer.unref();
    // Reported files are stored and handled one after another, beside the scan.
    let handling = Promise.resolve();
    try {
      const summary = await scanTree({
        roots: run.roots,
        sizeLimitKb: run.sizeLimitKb,
        extensions: run.extensions,
        whitelist: run.whitelist,
        workers: run.workers,
        ...(run.customRuleText.trim() ? { customRuleText: run.customRuleText } : {}),
        ...(run.customHashes.length ? { customHashes: run.customHashes } : {}),
        signal: this.#controller.signal,
        onProgress: (progress) => {
          scan.state = progress.state === 'complete' || progress.state === 'end' ? scan.state : progress.state;
          scan.done = progress.done;
          scan.total = progress.total;
          scan.walkDone = progress.walkDone;
          scan.currentPath = progress.currentPath;
        },
        onResult: (result) => {
          if (result.sha256 && run.trusted.has(result.sha256)) return;
          const flagged = isFlaggedRisk(result.risk);
          if (result.status === 'unscanned') scan.unscanned += 1;
          if (flagged) scan.flagged += 1;
          if (result.status !== 'unscanned' && result.risk === 'none') return;
          handling = handling.then(() => run.onReported(result)).catch((error: unknown) => run.log(`trojan scan ${scan.id}: ${result.path}: ${error instanceof Error ? error.message : String(error)}`));
        },
      });
      await handling;
      scan.state = summary.state;
      scan.done = summary.done;
      scan.total = summary.total;
    } catch (error) {
      run.log(`trojan scan ${scan.id} failed: ${error instanceof Error ? error.message : String(error)}`);
      await handling;
      scan.state = 'end';
    } finally {
      clearInterval(timer);
    }
    scan.ended = run.now();
    run.save({ ...scan });
    return scan;
  }
}
