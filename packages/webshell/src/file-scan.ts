/**
 * The one result type of the pipeline. It starts as a path and fills up as it moves through the
 * stages: read adds the bytes and the hash, classify the language, signatures and analyse add
 * findings (or mark it unscanned), verdict drops the bytes and states the risk.
 */
import type { WebshellFinding, WebshellLanguage, WebshellUnscannedReason } from '@rampart/contracts';

export interface FileScan {
  path: string;
  size: number;
  mtimeMs: number;
  /** Present from read until verdict; never leaves the engine. */
  bytes?: Buffer;
  sha256: string;
  language: WebshellLanguage;
  findings: WebshellFinding[];
  unscanned?: { reason: WebshellUnscannedReason; detail: string };
  startedAt: number;
  /** When the file's time budget runs out (Date.now() scale). */
  deadline: number;
}

export function startScan(path: string, timeBudgetMs: number, now = Date.now()): FileScan {
  return { path, size: 0, mtimeMs: 0, sha256: '', language: 'other', findings: [], startedAt: now, deadline: now + timeBudgetMs };
}
