import type { AuditLevel, AuditProcess, AuditReportSection, AuditUser, PatchItem, PatchLevel } from '@rampart/contracts';
import { levelWeights } from '../score.ts';
import type { ReportInput } from './build-report.ts';
import { inventoryReportLabels } from './inventory-labels.ts';

/*
 * The report's sections for the user, process and patch tabs: one table row per finding (worst
 * first), and the patch list with levels and status. Each is left out (null) when the console had
 * nothing to give (an agent without an audit root or without apt), so a report never claims a tab
 * was looked at when it was not. The user and process rows are those saved with the run; a run
 * from before runs saved them says so instead of showing today's.
 */

const worstFirst = <T extends { level: AuditLevel }>(rows: readonly T[]) => [...rows].sort((a, b) => levelWeights[b.level] - levelWeights[a.level]);

const patchWeight: Record<PatchLevel, number> = { emergency: 3, important: 2, optional: 1 };

export function accountSection(input: ReportInput): AuditReportSection | null {
  const l = inventoryReportLabels[input.language];
  if (input.inventoryNotSaved) return { kind: 'table', id: 'accounts', title: l.section.accounts, empty: l.section.not_saved, columns: [], rows: [] };
  if (!input.users) return null;
  const found = input.users.flatMap((user: AuditUser) => user.findings.map((f) => ({ user, ...f })));
  return {
    kind: 'table', id: 'accounts', title: l.section.accounts, empty: l.section.accounts_empty,
    columns: [{ key: 'account', label: l.col.account }, { key: 'finding', label: l.col.finding }, { key: 'level', label: l.col.level }, { key: 'detail', label: l.col.detail }, { key: 'advice', label: l.col.advice }],
    rows: worstFirst(found).map((f) => ({ account: `${f.user.name} (uid ${f.user.uid})`, finding: l.user[f.kind].title, level: l.level[f.level], detail: f.detail, advice: l.user[f.kind].advice })),
  };
}

export function processSection(input: ReportInput): AuditReportSection | null {
  const l = inventoryReportLabels[input.language];
  if (input.inventoryNotSaved) return { kind: 'table', id: 'processes', title: l.section.processes, empty: l.section.not_saved, columns: [], rows: [] };
  if (!input.processes) return null;
  const found = input.processes.flatMap((proc: AuditProcess) => proc.findings.map((f) => ({ proc, ...f })));
  return {
    kind: 'table', id: 'processes', title: l.section.processes, empty: l.section.processes_empty,
    columns: [
      { key: 'process', label: l.col.process }, { key: 'pid', label: l.col.pid }, { key: 'user', label: l.col.user }, { key: 'path', label: l.col.path },
      { key: 'finding', label: l.col.finding }, { key: 'level', label: l.col.level }, { key: 'detail', label: l.col.detail }, { key: 'advice', label: l.col.advice },
    ],
    rows: worstFirst(found).map((f) => ({
      process: f.proc.name, pid: String(f.proc.pid), user: f.proc.user, path: f.proc.path ?? '',
      finding: l.process[f.kind].title, level: l.level[f.level], detail: f.detail, advice: l.process[f.kind].advice,
    })),
  };
}

export function patchSection(input: ReportInput): AuditReportSection | null {
  if (!input.patch?.available) return null;
  const l = inventoryReportLabels[input.language];
  const list: readonly PatchItem[] = input.patch.list;
  return {
    kind: 'table', id: 'patches', title: l.section.patches, empty: input.patch.check.state === 'never' ? l.section.patches_never : l.section.patches_empty,
    columns: [
      { key: 'package', label: l.col.package }, { key: 'level', label: l.col.level }, { key: 'installed', label: l.col.installed }, { key: 'new_version', label: l.col.new_version },
      { key: 'origin', label: l.col.origin }, { key: 'release_date', label: l.col.release_date }, { key: 'status', label: l.col.status },
    ],
    rows: [...list].sort((a, b) => patchWeight[b.level] - patchWeight[a.level]).map((p) => ({
      package: p.name, level: l.patch_level[p.level], installed: p.current_version ?? '', new_version: p.new_version,
      origin: p.origin, release_date: p.release_date ?? '', status: l.patch_status[p.status],
    })),
  };
}
