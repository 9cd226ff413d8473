import type { RegInfo, RegisterBody, RegisterResult } from '@rampart/contracts';
import { get, post, type RequestOptions } from '../../api/http.ts';

/* The soft_reg tab's calls (GET, POST /system/reg; POST /system/reg/refresh). Shapes are in contracts (api.ts). */

export const regInfoKey = ['system', 'reg'] as const;

export const fetchRegInfo = () => get<RegInfo>('/system/reg');
/** Asks the licence authority again: a new expiry, the transfers left, or that the key moved away. */
export const refreshRegInfo = () => post<void>('/system/reg/refresh');
/** Registers this console with another key while registered; the admin account is left alone. */
export const reRegister = (body: RegisterBody, options?: Omit<RequestOptions, 'method' | 'body'>) => post<RegisterResult>('/system/reg', body, options);
