/**
 * The thread that scans uploaded files with the web-shell engine (upload-scan.ts). It compiles the
 * built-in rules once, then answers one file per message. It runs off the gateway's event loop
 * because the engine's PHP analysis is synchronous (php-parser) and so cannot be interrupted: a
 * pathological upload here only delays uploads, never the other requests of the process, and the
 * owner can stop the thread when a file overruns its time budget.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { builtinRuleSet, scanBytes, type ScanContext } from '@rampart/webshell';
import type { ScanAnswer, ScanJob, ScanWorkerInit } from './upload-scan-protocol.ts';

const init = workerData as ScanWorkerInit;
// The administrator's custom YARA library and hashes live in the agent's scanner and are not passed
// to the gateway in this round: uploads get the built-in rules and the behaviour analysis.
const context: ScanContext = {
  sizeLimitKb: Math.ceil(init.maxFileBytes / 1024),
  timeBudgetMs: init.timeBudgetMs,
  ...(init.parserMaxBytes ? { parserMaxBytes: init.parserMaxBytes } : {}),
  ruleSet: builtinRuleSet(),
};

parentPort?.on('message', (job: ScanJob) => {
  let answer: ScanAnswer;
  try {
    answer = { id: job.id, result: scanBytes(job.name, Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength), {}, context) };
  } catch (error) {
    answer = { id: job.id, error: String((error as Error).message).slice(0, 200) };
  }
  parentPort?.postMessage(answer);
});
parentPort?.postMessage({ ready: true } satisfies ScanAnswer);
