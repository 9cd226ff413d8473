/**
 * One file, start to end. The whole data flow is here:
 *
 *   read (bounded) → classify → signatures (built-in, custom rules, custom hashes) → analyse → verdict
 *
 * Each stage takes the FileScan and returns it filled further; a stage that cannot go on marks it
 * unscanned with a reason and the later stages pass it along. Nothing here throws for a bad file.
 */
import { createHash } from 'node:crypto';
import type { WebshellFileResult } from '@rampart/contracts';
import type { YaraX } from '@litko/yara-x';
import { analyse, defaultParserMaxBytes } from './analyse/index.ts';
import { classify } from './classify.ts';
import { type FileScan, startScan } from './file-scan.ts';
import { type ReadResult, readBounded, readBoundedSync } from './read.ts';
import { type RuleSet, builtinRuleSet, signatureFindings } from './signatures.ts';
import { verdict } from './verdict.ts';

export interface ScanContext {
  sizeLimitKb: number;
  timeBudgetMs: number;
  /** Files above this many bytes get signatures but no PHP parse (the parser is synchronous). */
  parserMaxBytes?: number;
  ruleSet?: RuleSet;
  customRules?: YaraX;
  customHashes?: ReadonlySet<string>;
}

function withBytes(scan: FileScan, bytes: Buffer, size: number, mtimeMs: number): FileScan {
  return { ...scan, bytes, size, mtimeMs, sha256: createHash('sha256').update(bytes).digest('hex') };
}

function withLanguage(scan: FileScan): FileScan {
  return scan.bytes ? { ...scan, language: classify(scan.path, scan.bytes) } : scan;
}

function withSignatures(scan: FileScan, context: ScanContext): FileScan {
  const bytes = scan.bytes;
  if (!bytes) return scan;
  const rules = context.ruleSet ?? builtinRuleSet();
  const findings = [...scan.findings, ...signatureFindings(rules.byLanguage[scan.language] ?? rules.scanner, bytes, 'signature')];
  if (context.customRules) findings.push(...signatureFindings(context.customRules, bytes, 'custom_rule'));
  if (context.customHashes?.has(scan.sha256)) {
    findings.push({ source: 'custom_hash', reason: 'custom_hash', risk: 'high', evidence: scan.sha256, offset: 0, length: bytes.length });
  }
  return { ...scan, findings };
}

function withAnalysis(scan: FileScan, context: ScanContext): FileScan {
  if (Date.now() > scan.deadline) return { ...scan, unscanned: { reason: 'unscanned_timeout', detail: 'time budget spent before the analysis' } };
  try {
    return analyse(scan, { parserMaxBytes: context.parserMaxBytes ?? defaultParserMaxBytes });
  } catch (error) {
    return { ...scan, unscanned: { reason: 'unscanned_error', detail: String((error as Error).message).slice(0, 200) } };
  }
}

/** The stages after read, in order. */
function fromBytes(scan: FileScan, context: ScanContext): WebshellFileResult {
  return verdict(withAnalysis(withSignatures(withLanguage(scan), context), context));
}

/** Scans bytes already in memory (an upload, a file read by the caller). */
export function scanBytes(path: string, bytes: Buffer, meta: { size?: number; mtimeMs?: number }, context: ScanContext): WebshellFileResult {
  return fromBytes(withBytes(startScan(path, context.timeBudgetMs), bytes, meta.size ?? bytes.length, meta.mtimeMs ?? 0), context);
}

function fromRead(started: FileScan, read: ReadResult, context: ScanContext): WebshellFileResult {
  if (!read.ok) {
    return verdict({ ...started, size: read.size, mtimeMs: read.mtimeMs, unscanned: { reason: read.reason, detail: read.detail } });
  }
  return fromBytes(withBytes(started, read.bytes, read.size, read.mtimeMs), context);
}

/** Reads and scans one file. In-process: the time budget is checked between and inside stages;
 * for a hard bound on a pathological file use scanTree, whose workers can be stopped. */
export async function scanFile(path: string, context: ScanContext): Promise<WebshellFileResult> {
  const started = startScan(path, context.timeBudgetMs);
  return fromRead(started, await readBounded(path, context.sizeLimitKb), context);
}

/** scanFile with a synchronous read: for a worker thread, which has nothing else to do meanwhile. */
export function scanFileSync(path: string, context: ScanContext): WebshellFileResult {
  const started = startScan(path, context.timeBudgetMs);
  return fromRead(started, readBoundedSync(path, context.sizeLimitKb), context);
}
