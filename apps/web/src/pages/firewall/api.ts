import type {
  AttackSettings, FirewallChange, FirewallDirection, FirewallListKind, FirewallRule, FirewallRuleInput, FirewallStatus, InterceptEntry, ListEntry,
} from '@rampart/contracts';
import { fetchBlob, get, post } from '../../api/http.ts';

/* The console's firewall calls (GET/POST /firewall/…). Shapes are the schemas of firewall.ts and firewall-api.ts. */

/** One page of a list. */
export interface Paged<T> {
  total: number;
  list: T[];
}

/** Paging and the keyword of a list page; an empty keyword is left out of the query. */
export interface PageQuery {
  keyword: string;
  page: number;
  size: number;
}

/** Entries to act on: the listed ids, or all of them. */
export type Ids = readonly number[] | 'all';

/** An import answers the counts and, like every change, the warnings and a possible probation. */
export type ImportResult = { added: number; skipped: number } & Partial<FirewallChange>;

/** Everything the firewall tabs read lives under this query key, so one invalidation refreshes them all. */
export const firewallKey = ['firewall'] as const;
export const statusKey = ['firewall', 'status'] as const;
export const attackKey = ['firewall', 'attack'] as const;

/** Rows per page unless the user picks another size. */
export const defaultPageSize = 20;
export const pageSizes = [10, 20, 50, 100];

const pageParams = (q: PageQuery) => ({ keyword: q.keyword.trim() || undefined, page: q.page, size: q.size });

/** Quiet: every tab reads it beside its own list, whose call already tells the user when the console or agent fails. */
export const fetchFirewallStatus = () => get<FirewallStatus>('/firewall/status', { quiet: true });

export const fetchRules = (direction: FirewallDirection, q: PageQuery) =>
  get<Paged<FirewallRule>>('/firewall/rules', { query: { direction, ...pageParams(q) } });
export const addRule = (rule: FirewallRuleInput) => post<FirewallChange>('/firewall/rules/add', rule);
export const editRule = (id: number, rule: FirewallRuleInput) => post<FirewallChange>('/firewall/rules/edit', { id, ...rule });
export const setRulesEnabled = (ids: readonly number[], enabled: boolean) =>
  post<FirewallChange>(enabled ? '/firewall/rules/enable' : '/firewall/rules/disable', { ids });
export const deleteRules = (ids: readonly number[]) => post<FirewallChange>('/firewall/rules/delete', { ids });

export const fetchAttackSettings = () => get<AttackSettings>('/firewall/attack');
/** Answers the settings as stored (older agents answered `{saved}`: the page then keeps what it sent). */
export const saveAttackSettings = (settings: AttackSettings) => post<AttackSettings | { saved: boolean } | null>('/firewall/attack', settings);

export const fetchListEntries = (list: FirewallListKind, q: PageQuery) =>
  get<Paged<ListEntry>>('/firewall/lists', { query: { list, ...pageParams(q) } });
export const addListEntries = (body: { list: FirewallListKind; addresses: string[]; remark: string; expires_at: number | null }) =>
  post<FirewallChange>('/firewall/lists/add', body);
export const deleteListEntries = (list: FirewallListKind, ids: Ids) => post<FirewallChange>('/firewall/lists/delete', { list, ids });
/** Imports can be large: they get the download's longer deadline. */
export const importList = (body: { list: FirewallListKind; content: string; remark: string }) =>
  post<ImportResult>('/firewall/lists/import', body, { timeoutMs: 120_000 });

export const fetchIntercepts = (q: PageQuery) => get<Paged<InterceptEntry>>('/firewall/intercept', { query: pageParams(q) });
export const addIntercepts = (body: { ips: string[]; minutes: number; remark: string }) => post<FirewallChange>('/firewall/intercept/add', body);
export const deleteIntercepts = (ids: Ids) => post<FirewallChange>('/firewall/intercept/delete', { ids });

/** The black list, the white list or the interception list as a text file. */
export const exportFirewallList = (list: FirewallListKind | 'intercept') => fetchBlob('/firewall/export', { query: { list } });

/** Keeps a change that is on probation. */
export const confirmChange = (token: string) => post<{ confirmed: boolean }>('/firewall/confirm', { token });
