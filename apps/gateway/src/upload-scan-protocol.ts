/** What the gateway and its upload-scan thread say to each other (no side effects: both sides import it). */
import type { WebshellFileResult } from '@rampart/contracts';

export interface ScanWorkerInit {
  maxFileBytes: number;
  timeBudgetMs: number;
  parserMaxBytes?: number;
}
/** One file: its name as uploaded (the engine reads the extension as a hint) and its bytes. */
export interface ScanJob { id: number; name: string; bytes: Uint8Array }
export interface ScanAnswer { ready?: true; id?: number; result?: WebshellFileResult; error?: string }
