import type { AuditLevel, AuditOutcome, AuditResultRow, AuditRun, AuditStarted, AuditStatus, ReinforceItem, ReinforceItemResult } from '@rampart/contracts';
import { get, post } from '../../api/http.ts';

/* The console's security audit calls (GET/POST /audit/…). Shapes are the schemas of audit-api.ts. */

export const auditKey = ['audit'] as const;

export interface ResultsQuery {
  run_id?: number;
  level?: AuditLevel;
  outcome?: AuditOutcome;
  page: number;
  size: number;
}

/** While a run or an apply is in progress the pages poll status this often. */
export const auditPollMs = 1000;

export const fetchAuditStatus = () => get<AuditStatus>('/audit/status', { quiet: true });
export const fetchAuditResults = (q: ResultsQuery) => get<{ run: AuditRun | null; total: number; list: AuditResultRow[] }>('/audit/results', { query: { ...q } });
export const fetchAuditHistory = (page: number, size: number) => get<{ total: number; list: AuditRun[] }>('/audit/history', { query: { page, size } });
export const startAudit = () => post<AuditStarted>('/audit/start');
export const fetchReinforceItems = () => get<{ list: ReinforceItem[] }>('/audit/reinforce/items');
export const applyReinforce = (checkIds: readonly string[]) => post<{ started: boolean }>('/audit/reinforce/apply', { checkIds });
export const revertReinforce = (checkIds: readonly string[] | 'all') =>
  post<{ results: ReinforceItemResult[] }>('/audit/reinforce/revert', checkIds === 'all' ? { all: true } : { checkIds });
