import { localDay, type AuditReportFormat } from '@rampart/contracts';

/** A download's name: only digits, letters and dashes, whatever the run holds (rampart-audit-12-2026-12-06.html). */
export function reportFileName(runId: number, finishedAt: number, format: AuditReportFormat): string {
  return `rampart-audit-${Math.trunc(runId)}-${localDay(finishedAt)}.${format}`;
}
