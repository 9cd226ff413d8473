import type { DynamicConnections, DynamicOverview, DynamicSettings, PerformanceSeries } from '@rampart/contracts';
import { get, post } from '../../api/http.ts';

/* The console's situational-awareness calls (GET/POST /dynamic/…); shapes are the schemas of dynamic.ts. */

export const dynamicKey = ['dynamic'] as const;

// Polled: quiet, so a console or agent outage is one message on the page (LoadError), not a modal per poll.
export const fetchOverview = () => get<DynamicOverview>('/dynamic/overview', { quiet: true });
export const fetchConnections = () => get<DynamicConnections>('/dynamic/connections', { quiet: true });
export const fetchPerformance = () => get<PerformanceSeries>('/dynamic/performance', { quiet: true });
export const fetchSettings = () => get<DynamicSettings>('/dynamic/settings', { quiet: true });
export const saveSettings = (settings: DynamicSettings) => post<DynamicSettings>('/dynamic/settings', { settings });
