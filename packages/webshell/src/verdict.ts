/**
 * Stage 6, verdict: the file's risk is its strongest finding's. Findings come strongest first,
 * bounded in number (a file with a thousand matches is no more a shell than one with ten).
 */
import type { WebshellFileResult, WebshellUnscannedReason } from '@rampart/contracts';
import type { FileScan } from './file-scan.ts';
import { maxRisk, riskRank } from './signals.ts';

const maxFindings = 32;

export function verdict(scan: FileScan, now = Date.now()): WebshellFileResult {
  const findings = [...scan.findings]
    .sort((a, b) => riskRank(b.risk) - riskRank(a.risk) || a.offset - b.offset)
    .slice(0, maxFindings);
  return {
    path: scan.path,
    size: scan.size,
    mtimeMs: scan.mtimeMs,
    sha256: scan.sha256,
    language: scan.language,
    status: scan.unscanned ? 'unscanned' : 'scanned',
    ...(scan.unscanned ? { unscannedReason: scan.unscanned.reason } : {}),
    risk: findings.reduce((risk, finding) => maxRisk(risk, finding.risk), 'none' as WebshellFileResult['risk']),
    findings,
    elapsedMs: Math.max(0, now - scan.startedAt),
  };
}

/** A file that never got a scan of its own (its worker was stopped or died, or the pool closed). */
export function unscannedResult(path: string, reason: WebshellUnscannedReason): WebshellFileResult {
  return { path, size: 0, mtimeMs: 0, sha256: '', language: 'other', status: 'unscanned', unscannedReason: reason, risk: 'none', findings: [], elapsedMs: 0 };
}
