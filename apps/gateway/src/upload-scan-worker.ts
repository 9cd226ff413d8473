/**
 * The thread that scans uploaded files with the web-shell engine (upload-scan.ts). It compiles the
 * built-in rules and the configuration's custom library once, then answers one file per message. It
 * runs off the gateway's event loop because the engine's PHP analysis is synchronous (php-parser)
 * and so cannot be interrupted: a pathological upload here only delays uploads, never the other
 * requests of the process, and the owner can stop the thread when a file overruns its time budget.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { builtinRuleSet, classify, compileCustomRules, parseHashList, scanBytes, type ScanContext } from '@rampart/webshell';
import type { ScanAnswer, ScanJob, ScanWorkerInit } from './upload-scan-protocol.ts';

const init = workerData as ScanWorkerInit;

/**
 * The custom library, compiled once for this thread (one per configuration: the owner replaces the
 * thread when the library changes). One that fails leaves the built-in rules scanning and is
 * reported with `ready`: a bad library must not stop the upload scan.
 */
function customLibrary(): { context: Pick<ScanContext, 'customRules' | 'customHashes'>; error?: string } {
  const library = init.library;
  if (!library) return { context: {} };
  const errors: string[] = [];
  const context: Pick<ScanContext, 'customRules' | 'customHashes'> = {};
  if (library.rules.trim()) {
    const compiled = compileCustomRules(library.rules);
    if (compiled.ok) context.customRules = compiled.scanner;
    else errors.push(`rules: ${compiled.error}`);
  }
  const hashes = parseHashList(library.hashes);
  if (hashes.ok) {
    if (hashes.hashes.size > 0) context.customHashes = hashes.hashes;
  } else errors.push(`hashes: ${hashes.error}`);
  return errors.length > 0 ? { context, error: errors.join('; ').slice(0, 500) } : { context };
}

const custom = customLibrary();
const context: ScanContext = {
  sizeLimitKb: Math.ceil(init.maxFileBytes / 1024),
  timeBudgetMs: init.timeBudgetMs,
  ...(init.parserMaxBytes ? { parserMaxBytes: init.parserMaxBytes } : {}),
  ruleSet: builtinRuleSet(),
  ...custom.context,
};

parentPort?.on('message', (job: ScanJob) => {
  let answer: ScanAnswer;
  try {
    const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
    // A decoded field that is no script (a base64 avatar, a PDF, random data) costs no scan.
    const skip = job.scriptOnly === true && classify(job.name, bytes) === 'other';
    answer = skip ? { id: job.id } : { id: job.id, result: scanBytes(job.name, bytes, {}, context) };
  } catch (error) {
    answer = { id: job.id, error: String((error as Error).message).slice(0, 200) };
  }
  parentPort?.postMessage(answer);
});
parentPort?.postMessage({ ready: true, ...(custom.error ? { libraryError: custom.error } : {}) } satisfies ScanAnswer);
