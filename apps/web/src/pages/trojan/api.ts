import type {
  TrojanChange,
  TrojanDir,
  TrojanDirInput,
  TrojanIsolated,
  TrojanLibrary,
  TrojanResult,
  TrojanResultAction,
  TrojanScan,
  TrojanSettings,
  TrojanStatus,
} from '@rampart/contracts';
import { isApiError } from '../../api/errors.ts';
import { get, post } from '../../api/http.ts';
import type { Paged, PageQuery } from '../firewall/api.ts';

/* The console's trojan protection calls (GET/POST /trojan/…, /audit/trojan/…). Shapes are the schemas of trojan.ts and trojan-api.ts. */

export const trojanKey = ['trojan'] as const;
export const auditTrojanKey = ['audit', 'trojan'] as const;

/** While a scan runs its progress is read this often. */
export const scanPollMs = 1000;

export const isRunning = (scan: TrojanScan | null | undefined): boolean => scan?.state === 'start' || scan?.state === 'scanning';

const pageParams = (q: PageQuery) => ({ keyword: q.keyword.trim() || undefined, page: q.page, size: q.size });

export interface SiteRoot {
  site: string;
  path: string;
  protected: boolean;
}
export type LibraryView = TrojanLibrary & { ruleCount: number; hashCount: number };
export interface TrojanSource {
  id: number;
  text: string;
  truncated: boolean;
  binary: boolean;
  findings: TrojanResult['findings'];
}
export interface ResultsQuery {
  /** A scan's results, or the real-time watch's. */
  scan: number | 'watch';
  all: boolean;
  page: number;
  size: number;
}

/** The refusal a change carries as data (routes/trojan.ts): its message key and detail. */
export function refusalOf(e: unknown): { refused: string; detail: string } | undefined {
  if (!isApiError(e) || typeof e.data !== 'object' || e.data === null) return undefined;
  const { refused, detail } = e.data as { refused?: unknown; detail?: unknown };
  return typeof refused === 'string' ? { refused, detail: typeof detail === 'string' ? detail : '' } : undefined;
}

export const fetchTrojanStatus = () => get<TrojanStatus>('/trojan/status', { quiet: true });
export const fetchTrojanSettings = () => get<TrojanSettings>('/trojan/settings');
export const saveTrojanSettings = (settings: TrojanSettings) => post<TrojanChange>('/trojan/settings', { settings });
export const fetchLibrary = () => get<LibraryView>('/trojan/library');
/** The compiler's message is shown by the form itself. */
export const saveLibrary = (library: TrojanLibrary) => post<TrojanChange>('/trojan/library', { library }, { errorModal: false });

export const fetchDirs = (q: PageQuery) => get<Paged<TrojanDir>>('/trojan/dirs', { query: pageParams(q) });
export const discoverDirs = () => get<{ list: SiteRoot[] }>('/trojan/dirs/discover');
export const addDirs = (dirs: TrojanDirInput[]) => post<TrojanChange>('/trojan/dirs/add', { dirs });
export const setDirsEnabled = (ids: readonly number[], enabled: boolean) => post<TrojanChange>('/trojan/dirs/enable', { ids, enabled });
export const deleteDirs = (ids: readonly number[]) => post<TrojanChange>('/trojan/dirs/delete', { ids });

export const startScan = () => post<TrojanScan>('/trojan/scan/start');
export const cancelScan = (id: number) => post<TrojanChange>('/trojan/scan/cancel', { id });
export const fetchLatestScan = async () => (await get<Paged<TrojanScan>>('/trojan/scans', { query: { page: 1, size: 1 }, quiet: true })).list[0] ?? null;
export const fetchResults = (q: ResultsQuery) =>
  get<Paged<TrojanResult>>('/trojan/results', { query: { ...(q.scan === 'watch' ? { watch: '1' } : { scan: q.scan }), flagged: q.all ? '0' : '1', page: q.page, size: q.size } });
export const handleResults = (ids: readonly number[], action: TrojanResultAction) => post<TrojanChange>('/trojan/results/handle', { ids, action });

export const fetchIsolated = (q: PageQuery) => get<Paged<TrojanIsolated>>('/trojan/isolate', { query: pageParams(q) });
export const fetchSource = (id: number) => get<TrojanSource>('/trojan/isolate/source', { query: { id } });
/** A file at the original path is refused unless `overwrite`: the page asks, so it shows that refusal itself. */
export const restoreIsolated = (ids: readonly number[], overwrite: boolean) => post<TrojanChange>('/trojan/isolate/restore', { ids, overwrite }, { errorModal: false });
export const deleteIsolated = (ids: readonly number[]) => post<TrojanChange>('/trojan/isolate/delete', { ids });

export const startAuditScan = (paths: string[]) => post<TrojanScan>('/audit/trojan/scan', { paths });
export const fetchAuditScan = () => get<TrojanScan | null>('/audit/trojan/scan', { quiet: true });
export const cancelAuditScan = (id: number) => post<TrojanChange>('/audit/trojan/cancel', { id });
export const fetchAuditResults = (q: ResultsQuery) =>
  get<Paged<TrojanResult>>('/audit/trojan/results', { query: { ...(q.scan === 'watch' ? {} : { scan: q.scan }), flagged: q.all ? '0' : '1', page: q.page, size: q.size } });
export const handleAuditResults = (ids: readonly number[], action: TrojanResultAction) => post<TrojanChange>('/audit/trojan/handle', { ids, action });
