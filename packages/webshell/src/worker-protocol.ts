/** What the pool and its workers say to each other (no side effects: both sides import it). */
import type { WebshellFileResult } from '@rampart/contracts';

/** Test-only: the worker blocks (as a stuck parser would) on files whose path contains `pathIncludes`. */
export interface WorkerStall { pathIncludes: string; ms: number }

export interface WorkerInit {
  sizeLimitKb: number;
  timeBudgetMs: number;
  parserMaxBytes?: number;
  customRuleText?: string;
  customHashes?: string[];
  /** Int32Array view: [0] = index of the file being scanned in the batch (-1 between batches), [1] = its start (ms since epoch). */
  progress: SharedArrayBuffer;
  epoch: number;
  stall?: WorkerStall;
}
export interface WorkerBatch { id: number; paths: string[] }
export interface WorkerAnswer { ready?: true; id?: number; results?: WebshellFileResult[] }

export const progressIndex = 0;
export const progressStart = 1;
