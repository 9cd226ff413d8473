/** What the gateway and its upload-scan thread say to each other (no side effects: both sides import it). */
import type { TrojanLibrary, WebshellFileResult } from '@rampart/contracts';

export interface ScanWorkerInit {
  maxFileBytes: number;
  timeBudgetMs: number;
  parserMaxBytes?: number;
  /** The trojan module's custom library of the current configuration (policy.custom_library); absent: built-in rules only. */
  library?: TrojanLibrary;
}
/**
 * One file: its name as uploaded (the engine reads the extension as a hint) and its bytes.
 * `scriptOnly`: a file decoded out of a form or JSON field (embedded-files.ts), scanned only when the
 * engine classifies it as script or a polyglot image; anything else answers no result at once.
 */
export interface ScanJob { id: number; name: string; bytes: Uint8Array; scriptOnly?: boolean }
/** `libraryError`: with `ready`, the custom library did not compile (or parse) and the thread scans with the built-in rules. */
export interface ScanAnswer { ready?: true; libraryError?: string; id?: number; result?: WebshellFileResult; error?: string }
