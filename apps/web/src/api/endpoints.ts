import type {
  GlobalInfo, HomeIndex, Language, LoginBody, LoginConfig, LoginResult, ModuleSwitchBody, NetRates,
  RegisterBody, RegisterResult, SetPasswordBody, UserInfo,
} from '@rampart/contracts';
import { get, post, type RequestOptions } from './http.ts';

/* The console API calls the shell makes. Shapes are the zod schemas in @rampart/contracts (api.ts). */

type CallOptions = Omit<RequestOptions, 'method' | 'body'>;

// Public
export const fetchLoginConfig = () => get<LoginConfig>('/login');
export const signIn = (body: LoginBody) => post<LoginResult>('/login', body);
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
export const switchModule = (body: ModuleSwitchBody) => post<void>('/module_switch', body);
/** t=1 restarts the software, t=2 reboots the server. */
export const restart = (t: 1 | 2) => post<void>('/restart', undefined, { query: { t } });
