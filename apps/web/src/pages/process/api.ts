import type { ProcessChange, ProcessRule, ProcessRuleInput, ProcessStatus } from '@rampart/contracts';
import { get, post } from '../../api/http.ts';
import type { Paged, PageQuery } from '../firewall/api.ts';

/* The console's process protection calls (GET/POST /process/…). Shapes are the schemas of process.ts and process-api.ts. */

export const processKey = ['process'] as const;

const pageParams = (q: PageQuery) => ({ keyword: q.keyword.trim() || undefined, page: q.page, size: q.size });

export const fetchProcessStatus = () => get<ProcessStatus>('/process/status', { quiet: true });
export const fetchProcessRules = (q: PageQuery) => get<Paged<ProcessRule>>('/process/rules', { query: pageParams(q) });
export const addProcessRule = (rule: ProcessRuleInput) => post<ProcessChange>('/process/rules/add', { rule });
export const editProcessRule = (id: number, rule: ProcessRuleInput) => post<ProcessChange>('/process/rules/edit', { rule: { id, ...rule } });
export const setProcessRulesEnabled = (ids: readonly number[], enabled: boolean) => post<ProcessChange>('/process/rules/enable', { ids, enabled });
export const deleteProcessRules = (ids: readonly number[]) => post<ProcessChange>('/process/rules/delete', { ids });
