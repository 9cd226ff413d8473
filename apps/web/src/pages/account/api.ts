import type { AccountChange, AccountPrivileged, AccountSettings, AccountStatus } from '@rampart/contracts';
import { get, post } from '../../api/http.ts';

/* The console's user-protection calls (GET/POST /account/…). Shapes are the schemas of account.ts and account-api.ts. */

/** Everything the page reads lives under this key, so one invalidation refreshes it all. */
export const accountKey = ['account'] as const;

export const fetchAccountStatus = () => get<AccountStatus>('/account/status');
export const fetchPrivileged = () => get<AccountPrivileged>('/account/privileged');
export const saveAccountSettings = (settings: AccountSettings) => post<AccountChange>('/account/settings', { settings });
export const unlockAccountFiles = (minutes: number) => post<AccountChange>('/account/unlock', { minutes });
export const relockAccountFiles = () => post<AccountChange>('/account/relock');
export const setRootLogin = (disable: boolean) => post<AccountChange>('/account/root_login', { disable });
