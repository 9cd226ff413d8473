import type { AuditProcess, AuditUser } from '@rampart/contracts';
import { get } from '../../api/http.ts';

/* The console's user and process audit calls (GET /audit/account/…, /audit/process/…); shapes are audit-inventory.ts's. */

export interface InventoryQuery {
  findings_only: boolean;
  keyword: string;
  page: number;
  size: number;
}
export interface InventoryPage<T> {
  available: boolean;
  total: number;
  findings: { hint: number; warning: number; danger: number };
  list: T[];
}

const params = (q: InventoryQuery) => ({ findings_only: q.findings_only ? '1' : undefined, keyword: q.keyword || undefined, page: q.page, size: q.size });

export const fetchAuditUsers = (q: InventoryQuery) => get<InventoryPage<AuditUser>>('/audit/account/list', { query: params(q) });
export const fetchAuditProcesses = (q: InventoryQuery) => get<InventoryPage<AuditProcess>>('/audit/process/list', { query: params(q), timeoutMs: 30_000 });
export const fetchAuditProcess = (pid: number) => get<AuditProcess>('/audit/process/detail', { query: { pid } });
