/**
 * A directory scan: walk → worker pool → results, with progress (files done / total, current path)
 * and cancel. The walk runs ahead of the scan, so `total` grows until the walk is over.
 */
import type { WebshellFileResult, WebshellScanProgress } from '@rampart/contracts';
import { isFlaggedRisk } from '@rampart/contracts';
import { ScanPool, batchSize } from './pool.ts';
import type { WorkerStall } from './worker-protocol.ts';
import { walkTree } from './walk.ts';
import { whitelistMatcher } from './whitelist.ts';

export interface TreeScanOptions {
  roots: readonly string[];
  sizeLimitKb: number;
  extensions: readonly string[];
  whitelist?: readonly string[];
  timeBudgetMs?: number;
  workers?: number;
  parserMaxBytes?: number;
  customRuleText?: string;
  customHashes?: readonly string[];
  signal?: AbortSignal;
  onProgress?: (progress: WebshellScanProgress) => void;
  /** Every file's result, as it is done. */
  onResult?: (result: WebshellFileResult) => void;
  /** Test-only: make the workers block on some files, as a stuck parser would (see worker-protocol.ts). */
  testStall?: WorkerStall;
}

export interface TreeScanSummary {
  state: 'complete' | 'end';
  done: number;
  total: number;
  /** Flagged (high or medium) and unscanned files; clean ones only go to onResult. */
  reported: WebshellFileResult[];
}

export const defaultTimeBudgetMs = 3000;

export async function scanTree(options: TreeScanOptions): Promise<TreeScanSummary> {
  const progress: WebshellScanProgress = { state: 'start', done: 0, total: 0, walkDone: false, currentPath: '', flagged: 0, unscanned: 0 };
  const report = (): void => options.onProgress?.({ ...progress });
  report();
  const pool = new ScanPool({
    sizeLimitKb: options.sizeLimitKb,
    timeBudgetMs: options.timeBudgetMs ?? defaultTimeBudgetMs,
    ...(options.parserMaxBytes ? { parserMaxBytes: options.parserMaxBytes } : {}),
    ...(options.customRuleText ? { customRuleText: options.customRuleText } : {}),
    ...(options.customHashes ? { customHashes: [...options.customHashes] } : {}),
    ...(options.testStall ? { stall: options.testStall } : {}),
  }, options.workers ?? 2);
  const reported: WebshellFileResult[] = [];
  const inFlight = new Set<Promise<void>>();
  let wake: (() => void) | undefined;
  const skip = whitelistMatcher(options.whitelist ?? []);
  // Two full batches per worker queued ahead: the workers never wait for the walk, and memory stays bounded.
  const limit = (options.workers ?? 2) * batchSize * 2;
  progress.state = 'scanning';
  try {
    for (const root of options.roots) {
      for await (const path of walkTree(root, { extensions: options.extensions, skip, ...(options.signal ? { signal: options.signal } : {}) })) {
        if (options.signal?.aborted) break;
        progress.total += 1;
        const job = pool.scan(path).then((result) => {
          if (options.signal?.aborted) return;
          progress.done += 1;
          progress.currentPath = path;
          if (result.status === 'unscanned') progress.unscanned += 1;
          if (isFlaggedRisk(result.risk)) progress.flagged += 1;
          if (result.status === 'unscanned' || isFlaggedRisk(result.risk)) reported.push(result);
          options.onResult?.(result);
          report();
        });
        inFlight.add(job);
        void job.finally(() => { inFlight.delete(job); if (inFlight.size < limit) wake?.(); });
        // Backpressure: the walk waits while the pool has enough queued work (memory stays bounded).
        while (inFlight.size >= limit) await new Promise<void>((resolve) => { wake = resolve; });
        wake = undefined;
      }
      if (options.signal?.aborted) break;
    }
    progress.walkDone = true;
    if (!options.signal?.aborted) await Promise.all(inFlight);
  } finally {
    await pool.close();
  }
  progress.state = options.signal?.aborted ? 'end' : 'complete';
  report();
  return { state: progress.state, done: progress.done, total: progress.total, reported };
}
