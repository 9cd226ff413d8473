/**
 * A scan worker: compiles the rules once, then scans the batches of paths it is sent, one file
 * after another, and answers with the batch's results in one message. It runs in its own thread so
 * the pool can stop it when a file overruns its time budget: php-parser is synchronous and nothing
 * inside a thread can interrupt it.
 *
 * Progress goes through shared memory, not messages: before each file the worker stores the file's
 * index in the batch and its start time (ms since the pool's epoch) in `progress`, so the pool's
 * watchdog sees which file is running and for how long without a message per file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { WebshellFileResult } from '@rampart/contracts';
import { scanFileSync, type ScanContext } from './scan-file.ts';
import { builtinRuleSet, compileCustomRules } from './signatures.ts';
import { unscannedResult } from './verdict.ts';
import { type WorkerAnswer, type WorkerBatch, type WorkerInit, progressIndex, progressStart } from './worker-protocol.ts';

const init = workerData as WorkerInit;
const progress = new Int32Array(init.progress);
const custom = init.customRuleText ? compileCustomRules(init.customRuleText) : undefined;
const context: ScanContext = {
  sizeLimitKb: init.sizeLimitKb,
  timeBudgetMs: init.timeBudgetMs,
  ...(init.parserMaxBytes ? { parserMaxBytes: init.parserMaxBytes } : {}),
  ruleSet: builtinRuleSet(),
  ...(custom?.ok ? { customRules: custom.scanner } : {}),
  ...(init.customHashes ? { customHashes: new Set(init.customHashes) } : {}),
};
const stall = init.stall;
const sleeper = stall ? new Int32Array(new SharedArrayBuffer(4)) : undefined;

parentPort?.on('message', (batch: WorkerBatch) => {
  const results: WebshellFileResult[] = [];
  for (const [index, path] of batch.paths.entries()) {
    // Start first, index second: the watchdog reads index, start, index and trusts only a stable index.
    Atomics.store(progress, progressStart, Date.now() - init.epoch);
    Atomics.store(progress, progressIndex, index);
    if (stall && sleeper && path.includes(stall.pathIncludes)) Atomics.wait(sleeper, 0, 0, stall.ms);
    try {
      results.push(scanFileSync(path, context));
    } catch {
      results.push(unscannedResult(path, 'unscanned_error'));
    }
  }
  Atomics.store(progress, progressIndex, -1);
  parentPort?.postMessage({ id: batch.id, results } satisfies WorkerAnswer);
});
parentPort?.postMessage({ ready: true } satisfies WorkerAnswer);
