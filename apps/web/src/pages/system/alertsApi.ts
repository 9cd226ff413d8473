import type { AlertMethod, AlertQueueView, AlertSettingsInput, AlertSettingsView } from '@rampart/contracts';
import { get, post } from '../../api/http.ts';

/* The console calls of the alerts tab (notification service). */

export const alertsKey = ['system', 'alerts'] as const;
export const alertQueueKey = ['system', 'alerts', 'queue'] as const;

export const fetchAlerts = () => get<AlertSettingsView>('/system/alerts');
export const saveAlerts = (settings: AlertSettingsInput) => post<AlertSettingsView>('/system/alerts', settings);
/** A provider may take up to 10 s to answer; the test waits longer than an ordinary call. */
export const testAlert = (method: AlertMethod) => post<{ remaining: number }>('/system/alerts/test', { method }, { timeoutMs: 30_000 });
export const fetchAlertQueue = () => get<AlertQueueView>('/system/alerts/queue');
export const clearAlertQueue = () => post<AlertQueueView>('/system/alerts/queue', { action: 'clear' });
