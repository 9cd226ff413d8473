import type {
  AgentResult, BackupRuleInput, BackupRuleView, DownloadJob, EventLevel, EventModule, GlobalInfo, HomeIndex, Language, LogBase,
  LoginConfig, LogPage, LogPeriod, LogSettings, ModuleSwitchBody, ModuleSwitchResult, NetRates, NoticeInfo, NoticeListResult,
  PhotoPage, photoBaseSchema, RegisterBody, RegisterResult, SetPasswordBody, UserInfo,
} from '@rampart/contracts';
import { fetchBlob, get, post, type RequestOptions } from './http.ts';

/* The console API calls the shell makes. Shapes are the zod schemas in @rampart/contracts (api.ts). */

type CallOptions = Omit<RequestOptions, 'method' | 'body'>;

// Public
export const fetchLoginConfig = () => get<LoginConfig>('/login');
/** POST /login may answer a verification challenge instead of a session: see sign-in-check.ts. */
export { signIn } from './sign-in-check.ts';
export const fetchLicenceText = () => get<{ title: string; text: string }>('/licence');
export const registerLicence = (body: RegisterBody, options?: CallOptions) =>
  post<RegisterResult>('/register', body, options);

// Signed in
/** The timestamp keeps proxies and the browser from answering from a cache. */
export const fetchUserInfo = () => get<UserInfo>('/info', { query: { t: Date.now() } });
export const fetchGlobal = (options?: CallOptions) => get<GlobalInfo>('/global', options);
export const signOut = () => post<void>('/logout');
export const changePassword = (body: SetPasswordBody) => post<void>('/setpwd', body);
export const saveLanguage = (lang: Language) => post<void>('/system/basic/language', { lang });
export const fetchUnread = () => get<{ unread: number }>('/log/notice/unread');

// Home
export const fetchHomeIndex = () => get<HomeIndex>('/home/index');
export const fetchPerformance = () => get<NetRates>('/home/performance', { quiet: true });
/** Answers which modules it switched and which it left as they were, with why (a module not in this build cannot be switched on). */
export const switchModule = (body: ModuleSwitchBody) => post<ModuleSwitchResult>('/module_switch', body);
/** t=1 restarts the software, t=2 reboots the server. */
export const restart = (t: 1 | 2) => post<void>('/restart', undefined, { query: { t } });

// Event log (/log/system)
/** The filters of the log pages, as the query carries them (empty text filters are left out). */
export type LogFilters = { period: LogPeriod; module?: EventModule; level?: EventLevel; ip?: string; keyword?: string };
export type PhotoFilters = { period: LogPeriod; ip?: string; keyword?: string };
/** Rows per page of the log lists. */
export const logPageSize = 20;

export const fetchLogPage = (filters: LogFilters, before?: number) =>
  get<LogPage>('/log/system', { query: { ...filters, size: logPageSize, before } });
export const fetchLogBase = () => get<LogBase>('/log/system/base');
export const startLogDownload = (filters: LogFilters) => get<DownloadJob>('/log/system/download', { query: filters });
export const followLogDownload = (job: string) => get<DownloadJob>('/log/system/download', { query: { job } });
/** `quiet` when the page cancels on its own (leaving it); a cancel the user asked for shows the answer. */
export const cancelLogDownload = (job: string, quiet = false) => post<void>('/log/system/download/cancel', undefined, { query: { job }, quiet });
export const fetchLogArchive = (file: string) => fetchBlob('/log/archive', { query: { file } });

// Notices (/log/notice)
/** Notices to act on: the listed ids, or all of them. */
export type NoticeIds = readonly number[] | 'all';
const idsQuery = (ids: NoticeIds) => ({ ids: ids === 'all' ? 'all' : ids.join(',') });

export const fetchNotices = (page: number) => get<NoticeListResult>('/log/notice', { query: { page, size: logPageSize } });
export const fetchNoticeInfo = (id: number) => get<NoticeInfo>('/log/notice/info', { query: { id } });
export const markNoticesRead = (ids: NoticeIds) => post<void>('/log/notice/readed', undefined, { query: idsQuery(ids) });
export const deleteNotices = (ids: NoticeIds) => post<void>('/log/notice/delete', undefined, { query: idsQuery(ids) });

// Request snapshots (/log/photo)
export type PhotoBase = ReturnType<(typeof photoBaseSchema)['parse']>;

export const fetchPhotos = (filters: PhotoFilters, before?: number) =>
  get<PhotoPage>('/log/photo', { query: { ...filters, size: logPageSize, before } });
export const fetchPhotoBase = () => get<PhotoBase>('/log/photo/base');
export const fetchPhotoFile = (id: number) => fetchBlob('/log/photo/download', { query: { id } });
export const clearPhotos = () => post<unknown>('/log/photo');

// Log settings and backup rules (/system)
export type BackupRules = { rules: BackupRuleView[] };
export type BackupRunResult = AgentResult<'logs.backup.run'>;

export const fetchLogSettings = () => get<LogSettings>('/system/log');
export const saveLogSettings = (settings: LogSettings) => post<LogSettings>('/system/log', settings);
export const fetchBackupRules = () => get<BackupRules>('/system/log_backup');
export const saveBackupRules = (rules: BackupRuleInput[]) => post<BackupRules>('/system/log_backup', { rules });
/** Uploads can take a while per rule; the run waits longer than an ordinary call. */
export const runBackup = () => post<BackupRunResult>('/system/log_backup/run', undefined, { timeoutMs: 120_000 });
