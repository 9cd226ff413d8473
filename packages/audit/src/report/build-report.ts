import {
  auditReportVersion, localDateTime,
  type AuditProcess, type AuditReport, type AuditReportFinding, type AuditReportSection, type AuditResultRow, type AuditRun, type AuditUser,
  type Language, type PatchState, type ReinforceItem,
} from '@rampart/contracts';
import { levelWeights } from '../score.ts';
import { accountSection, patchSection, processSection } from './inventory-sections.ts';
import { reportLabels, type ReportLabels } from './labels.ts';

export type FinishedRun = AuditReport['run'];

/** The run when it finished (a report is made only of a finished run), else null. */
export function finishedRun(run: AuditRun | null): FinishedRun | null {
  if (!run || run.status !== 'finished' || run.score === null || run.finished_at === null) return null;
  return { ...run, status: 'finished', score: run.score, finished_at: run.finished_at };
}

export interface ReportInput {
  run: FinishedRun;
  /** Every result row of the run (audit.results, all pages). */
  results: readonly AuditResultRow[];
  /** The reinforcement items as they stand (audit.reinforce.items). */
  reinforce: readonly ReinforceItem[];
  /** The accounts with findings saved with the run (audit.run.inventory); absent: no such section. */
  users?: readonly AuditUser[];
  /** The processes with findings saved with the run (audit.run.inventory); absent: no such section. */
  processes?: readonly AuditProcess[];
  /** The run saved no account and process findings (it is older than that): their sections say so. */
  inventoryNotSaved?: boolean;
  /** The patch tab's state (audit.patch.status); absent or unavailable: no such section. */
  patch?: PatchState | null;
  language: Language;
  host: string;
  /** Epoch milliseconds the report is made at. */
  now: number;
}

/** One section of the report from the input, in the input's language; null leaves it out (its tab had nothing to give). */
export type ReportSection = (input: ReportInput, labels: ReportLabels, fixed: ReadonlySet<string>) => AuditReportSection | null;

const finding = (row: AuditResultRow, language: Language, fixed: ReadonlySet<string>): AuditReportFinding => ({
  id: row.id,
  cis_section: row.cis_section,
  category: row.category,
  level: row.level,
  outcome: row.outcome,
  fixable: row.fixable,
  fixed: fixed.has(row.id),
  title: row.title[language],
  advice: row.advice[language],
  evidence: row.evidence,
});

/** Worst first; the run's own order within a level. */
const byLevel = (rows: readonly AuditResultRow[]) => [...rows].sort((a, b) => levelWeights[b.level] - levelWeights[a.level]);

const checkTable = (input: ReportInput, l: ReportLabels, outcome: 'pass' | 'not_applicable', id: string, title: string, empty: string): AuditReportSection => ({
  kind: 'table',
  id,
  title,
  empty,
  columns: [{ key: 'title', label: l.col.check }, { key: 'category', label: l.col.category }, { key: 'level', label: l.col.level }, { key: 'id', label: l.col.id }],
  rows: input.results
    .filter((r) => r.outcome === outcome)
    .map((r) => ({ title: r.title[input.language], category: l.category[r.category], level: l.level[r.level], id: r.id })),
});

/** The system audit's sections, in the order a reader wants them: what is wrong, what was fixed, then the rest. */
export const systemSections: readonly ReportSection[] = [
  (input, l, fixed) => ({
    kind: 'findings', id: 'failed', title: l.section.failed, empty: l.section.failed_empty,
    findings: byLevel(input.results.filter((r) => r.outcome === 'fail')).map((r) => finding(r, input.language, fixed)),
  }),
  (input, l) => ({
    kind: 'table', id: 'reinforced', title: l.section.reinforced, empty: l.section.reinforced_empty,
    columns: [{ key: 'title', label: l.col.check }, { key: 'applied_at', label: l.col.applied_at }, { key: 'effect', label: l.col.effect }, { key: 'service', label: l.col.service }],
    rows: input.reinforce.filter((i) => i.applied).map((i) => ({
      title: i.title[input.language],
      applied_at: i.applied_at === null ? '' : localDateTime(i.applied_at),
      effect: i.effect ? l.effect[i.effect] : '',
      service: i.service ?? '',
    })),
  }),
  (input, l, fixed) => ({
    kind: 'findings', id: 'not-run', title: l.section.not_run, empty: l.section.not_run_empty,
    findings: byLevel(input.results.filter((r) => r.outcome === 'error')).map((r) => finding(r, input.language, fixed)),
  }),
  (input, l) => checkTable(input, l, 'pass', 'passed', l.section.passed, l.section.passed_empty),
  (input, l) => checkTable(input, l, 'not_applicable', 'not-applicable', l.section.not_applicable, l.section.not_applicable_empty),
];

/**
 * Every section: the system audit's findings, what was fixed and what could not run, then the user,
 * process and patch tabs' findings (when given), then the checks that passed or did not apply.
 */
export const reportSections: readonly ReportSection[] = [...systemSections.slice(0, 3), accountSection, processSection, patchSection, ...systemSections.slice(3)];

/** The report document: pure, from what the agent's audit calls answer. */
export function buildAuditReport(input: ReportInput, sections: readonly ReportSection[] = reportSections): AuditReport {
  const labels = reportLabels[input.language];
  const fixed = new Set(input.reinforce.filter((i) => i.applied).map((i) => i.id));
  return {
    format: 'rampart-audit-report',
    version: auditReportVersion,
    language: input.language,
    generated_at: input.now,
    host: input.host,
    title: labels.title,
    run: input.run,
    reinforced: input.reinforce.filter((i) => i.applied).map((i) => ({
      id: i.id, title: i.title[input.language], applied_at: i.applied_at, effect: i.effect, service: i.service,
    })),
    sections: sections.map((section) => section(input, labels, fixed)).filter((section) => section !== null),
  };
}
