/**
 * A scan worker: compiles the rules once, then scans the paths it is sent, one at a time. It runs
 * in its own thread so the pool can stop it when a file overruns its time budget: php-parser is
 * synchronous and nothing inside a thread can interrupt it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { scanFile, type ScanContext } from './scan-file.ts';
import { builtinRuleSet, compileCustomRules } from './signatures.ts';

export interface WorkerInit {
  sizeLimitKb: number;
  timeBudgetMs: number;
  parserMaxBytes?: number;
  customRuleText?: string;
  customHashes?: string[];
}
export interface WorkerTask { id: number; path: string }

const init = workerData as WorkerInit;
const custom = init.customRuleText ? compileCustomRules(init.customRuleText) : undefined;
const context: ScanContext = {
  sizeLimitKb: init.sizeLimitKb,
  timeBudgetMs: init.timeBudgetMs,
  ...(init.parserMaxBytes ? { parserMaxBytes: init.parserMaxBytes } : {}),
  ruleSet: builtinRuleSet(),
  ...(custom?.ok ? { customRules: custom.scanner } : {}),
  ...(init.customHashes ? { customHashes: new Set(init.customHashes) } : {}),
};

parentPort?.on('message', (task: WorkerTask) => {
  scanFile(task.path, context).then(
    (result) => parentPort?.postMessage({ id: task.id, result }),
    (error: unknown) => parentPort?.postMessage({ id: task.id, error: String((error as Error)?.message ?? error) }),
  );
});
parentPort?.postMessage({ ready: true });
