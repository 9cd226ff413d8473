import type { CommonArea, CommonAreaInput, FirewallChange, SuperWhitelistEntry, TerminalRow, TrustAutoAdd } from '@rampart/contracts';
import { get, post } from '../../api/http.ts';
import type { Paged, PageQuery } from '../firewall/api.ts';

/* The console calls of the trust_terminal (super whitelist) and common areas tabs. */

export const trustKey = ['system', 'trust'] as const;
export const areasKey = ['system', 'areas'] as const;

const pageParams = (q: PageQuery) => ({ keyword: q.keyword.trim() || undefined, page: q.page, size: q.size });

/** A page of the super whitelist, with the caller's own address (the quick fill) and the server's clock. */
export type TrustPage = Paged<SuperWhitelistEntry> & { client_ip: string; now: number };

export const fetchTrust = (q: PageQuery) => get<TrustPage>('/system/trust/ip', { query: pageParams(q) });
export const addTrust = (body: { ips: string[]; days: number; remark: string }) => post<{ added: number; skipped: number }>('/system/trust/ip', body);
export const deleteTrust = (ids: readonly number[]) => post<{ changed: number }>('/system/trust/ip_delete', undefined, { query: { id: ids.join(',') } });
export const renewTrust = (ids: readonly number[], days: number) => post<{ changed: number }>('/system/trust/ip/renewal', { days }, { query: { id: ids.join(',') } });
export const fetchTrustAuto = () => get<TrustAutoAdd>('/system/trust/auto');
export const saveTrustAuto = (body: TrustAutoAdd) => post<TrustAutoAdd>('/system/trust/auto', body);

export const fetchAreas = (q: PageQuery) => get<Paged<CommonArea>>('/system/areas', { query: pageParams(q) });
export const saveArea = (area: CommonAreaInput) => post<FirewallChange & { id: number | null }>('/system/areas', area);
export const deleteAreas = (ids: readonly number[]) => post<{ changed: number }>('/system/areas_delete', undefined, { query: { id: ids.join(',') } });

export const terminalsKey = ['system', 'trust', 'terminals'] as const;
export const fetchTrustTerminals = () => get<{ list: TerminalRow[] }>('/system/trust/terminals');
export const endTrustTerminal = (id: number) => post<undefined>('/system/trust/terminals/end', undefined, { query: { id } });
