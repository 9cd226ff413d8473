import type { AgentResult, BasicSettings, BasicView, NtpBody, NtpView, ProtectionBody, ProtectionState } from '@rampart/contracts';
import { get, post } from '../../api/http.ts';

/* The basic tab's calls (GET/POST /system/basic, /system/basic/protection, /system/basic/ntp). Shapes: contracts/system-basic.ts. */

export const basicKey = ['system', 'basic'] as const;
export const ntpKey = ['system', 'basic', 'ntp'] as const;

export const fetchBasic = () => get<BasicView>('/system/basic');
export const saveBasic = (body: BasicSettings) => post<BasicView>('/system/basic', body);
export const setProtectionMode = (body: ProtectionBody) => post<ProtectionState>('/system/basic/protection', body);

export const fetchNtp = () => get<NtpView>('/system/basic/ntp');
/** A sync may try every server in turn (each up to a few seconds): it waits longer than an ordinary call. */
export const saveNtp = (body: NtpBody) => post<AgentResult<'ntp.set'> | null>('/system/basic/ntp', body, { timeoutMs: 120_000 });
