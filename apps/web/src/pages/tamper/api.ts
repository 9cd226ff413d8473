import type {
  CmsTemplateId, CmsTemplatesAnswer, GuardStatus, NamingRule, NamingRuleInput, TamperChange, TamperRule, TamperRuleInput,
} from '@rampart/contracts';
import { get, post } from '../../api/http.ts';
import type { Paged, PageQuery } from '../firewall/api.ts';

/* The console's tamper calls (GET/POST /tamper/…). Shapes are the schemas of tamper.ts and tamper-api.ts. */

/** Everything the tamper tabs read lives under this key, so one invalidation refreshes them all. */
export const tamperKey = ['tamper'] as const;
export const guardStatusKey = ['tamper', 'status'] as const;

const pageParams = (q: PageQuery) => ({ keyword: q.keyword.trim() || undefined, page: q.page, size: q.size });

/** Quiet: the tab's own list call already tells the user when the console or agent fails. */
export const fetchGuardStatus = () => get<GuardStatus>('/tamper/status', { quiet: true });

export const fetchTamperRules = (q: PageQuery) => get<Paged<TamperRule>>('/tamper/rules', { query: pageParams(q) });
/** `confirmations`: 2 once the administrator confirmed a rule over / or all of /etc twice. */
export const addTamperRules = (rules: TamperRuleInput[], confirmations = 0) => post<TamperChange>('/tamper/rules/add', { rules, confirmations });
export const editTamperRule = (id: number, rule: TamperRuleInput, confirmations = 0) =>
  post<TamperChange>('/tamper/rules/edit', { rule: { id, ...rule }, confirmations });
export const setTamperRulesEnabled = (ids: readonly number[], enabled: boolean) => post<TamperChange>('/tamper/rules/enable', { ids, enabled });
export const deleteTamperRules = (ids: readonly number[]) => post<TamperChange>('/tamper/rules/delete', { ids });

export const fetchNamingRules = (q: PageQuery) => get<Paged<NamingRule>>('/tamper/names', { query: pageParams(q) });
export const addNamingRule = (rule: NamingRuleInput, confirmations = 0) => post<TamperChange>('/tamper/names/add', { rule, confirmations });
export const editNamingRule = (id: number, rule: NamingRuleInput, confirmations = 0) =>
  post<TamperChange>('/tamper/names/edit', { rule: { id, ...rule }, confirmations });
export const setNamingRulesEnabled = (ids: readonly number[], enabled: boolean) => post<TamperChange>('/tamper/names/enable', { ids, enabled });
export const deleteNamingRules = (ids: readonly number[]) => post<TamperChange>('/tamper/names/delete', { ids });

/** The templates in the page's language; with a CMS and a root, the rules it would add. */
export const fetchTemplates = (choice?: { id: CmsTemplateId; root: string }) =>
  get<CmsTemplatesAnswer>('/tamper/templates', { query: choice ? { id: choice.id, root: choice.root } : {} });
