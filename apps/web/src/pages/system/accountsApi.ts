import type { OnlineTerminalList, PanelAccount, PanelAccountAddBody, PanelAccountEditBody, PanelAccountList } from '@rampart/contracts';
import { get, post } from '../../api/http.ts';

/* The user tab's calls (GET/POST /system/user…). Shapes are the schemas of contracts' system-users.ts. */

/** Both lists live under this key: a change to an account refreshes its online state and terminals too. */
export const accountsKey = ['system', 'user'] as const;
export const accountListKey = [...accountsKey, 'list'] as const;
export const terminalListKey = [...accountsKey, 'online'] as const;

export const fetchAccounts = () => get<PanelAccountList>('/system/user', { query: { t: Date.now() } });
/**
 * The form's calls show their own errors: a refusal that names a field (bad input, a taken name)
 * goes on that field, anything else in the usual error modal (see AccountsPage).
 */
export const addAccount = (body: PanelAccountAddBody) => post<PanelAccount>('/system/user', body, { errorModal: false });
/** Only the fields given change; a blank password keeps the stored one. */
export const editAccount = (uid: number, body: PanelAccountEditBody, options: { errorModal?: boolean } = {}) =>
  post<PanelAccount>('/system/user_edit', body, { query: { uid }, ...options });
export const deleteAccount = (uid: number) => post<void>('/system/user_delete', undefined, { query: { uid } });

export const fetchTerminals = () => get<OnlineTerminalList>('/system/user/online/list', { query: { t: Date.now() } });
export const signOutTerminal = (id: string) => post<void>('/system/user/online/logout', undefined, { query: { id } });
