import type { DynamicConnections, DynamicOverview, DynamicSettings, PerformanceSeries } from '@rampart/contracts';
import { get, post } from '../../api/http.ts';

/* The console's situational-awareness calls (GET/POST /dynamic/…); shapes are the schemas of dynamic.ts. */

export const dynamicKey = ['dynamic'] as const;

export const fetchOverview = () => get<DynamicOverview>('/dynamic/overview');
export const fetchConnections = () => get<DynamicConnections>('/dynamic/connections');
export const fetchPerformance = () => get<PerformanceSeries>('/dynamic/performance');
export const fetchSettings = () => get<DynamicSettings>('/dynamic/settings');
export const saveSettings = (settings: DynamicSettings) => post<DynamicSettings>('/dynamic/settings', { settings });
