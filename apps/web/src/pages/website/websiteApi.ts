import type {
  WebsiteAuthorEntry, WebsiteDiscovery, WebsiteInterceptEntry, WebsiteProtectInput, WebsiteServerList, WebsiteSiteInput, WebsiteSql, WebsiteTabViews,
} from '@rampart/contracts';
import { get, post } from '../../api/http.ts';
import { noteGatewayReport } from './gatewayReport.ts';

/*
 * The console's website calls (spec section 7; the list and the shapes are website-api.ts's). GET
 * returns the tab's view, POST saves it. A change the gateway refused still saves and answers a
 * warning (code 1), which the API client shows.
 */

/** Everything the website tabs read lives under this key, so one invalidation refreshes them all. */
export const websiteKey = ['website'] as const;

/**
 * The console waits for the gateway's reload before it answers a change (up to 30 s,
 * gateway-link.ts reloadTimeoutMs): starting the new workers takes a second, several on a busy
 * machine. The client waits a little longer than that instead of calling a saved change a failure.
 */
const changeTimeoutMs = 35_000;

/** A change of the desired state: its answer carries the gateway's report, which the tabs keep showing. */
function change(path: string, body?: unknown): Promise<unknown> {
  return post<unknown>(path, body, { timeoutMs: changeTimeoutMs }).then((data) => {
    noteGatewayReport(data);
    return data;
  });
}

export type { WebsiteTabViews };
export type WebsiteTabInputs = Omit<WebsiteTabViews, 'protect'> & { protect: WebsiteProtectInput };
export type SettingsTab = keyof WebsiteTabViews;

export const fetchTab = <K extends SettingsTab>(tab: K) => get<WebsiteTabViews[K]>(`/website/${tab}`);
/** Answers the stored view, or something else (then the page reads the tab again). */
export const saveTab = <K extends SettingsTab>(tab: K, body: WebsiteTabInputs[K]) => change(`/website/${tab}`, body);

/* server */

export const fetchServers = () => get<WebsiteServerList>('/website/server');
/** The local nginx / Apache sites (`nginx -T`, `apachectl -S` through the agent); can take a few seconds. */
export const discoverSites = () => get<WebsiteDiscovery>('/website/server/discover', { timeoutMs: 30_000 });
export const addServer = (site: WebsiteSiteInput) => change('/website/server', site);
export const editServer = (site: WebsiteSiteInput) => change('/website/server/edit', site);
export const deleteServers = (ids: readonly number[]) => change('/website/server_delete', { ids });
export const setServersStatus = (ids: readonly number[], status: 'on' | 'off') => change('/website/server_status', { ids, status });
export const setServersRunning = (ids: readonly number[], running: boolean) => change('/website/server_running', { ids, running });

/* sql keyword libraries and the attack headers */

/** The keyword libraries as stored (the sql tab's "reload from the console"). */
export const fetchKeywords = () => post<WebsiteSql['keywords']>('/website/sql_getkeywords');

/* intercept_list and author_list */

export type TimedList = 'intercept_list' | 'author_list';
export type TimedEntry = WebsiteInterceptEntry | WebsiteAuthorEntry;
export interface TimedPage {
  total: number;
  list: TimedEntry[];
}
export interface TimedQuery {
  keyword: string;
  page: number;
  size: number;
}
export const fetchTimed = (list: TimedList, q: TimedQuery) =>
  get<TimedPage>(`/website/${list}`, { query: { keyword: q.keyword.trim() || undefined, page: q.page, size: q.size } });
export const addTimed = (list: TimedList, body: { ips: string[]; minutes: number; remark: string }) => post<unknown>(`/website/${list}`, body);
export const deleteTimed = (list: TimedList, ips: readonly string[]) => post<unknown>(`/website/${list}_delete`, { ips });
