import type { HomeWizardStateBody, HomeWizardTrustResult, HomeWizardView, PerformancePeriod, PerformanceSeries } from '@rampart/contracts';
import { get, post } from '../../../api/http.ts';

/* The wizard's own calls; its module and site steps use the existing ones (endpoints.ts, websiteApi.ts). */

export const wizardKey = ['home', 'wizard'] as const;

/** Quiet: the offer is a hint; if it cannot be read the dashboard simply does not offer it. */
export const fetchWizard = () => get<HomeWizardView>('/home/wizard', { quiet: true });
export const setWizardState = (state: HomeWizardStateBody['state']) => post<{ state: string }>('/home/wizard', { state }, { quiet: true });
/** No address in the call: the console adds the one this request comes from. */
export const trustMyAddress = () => post<HomeWizardTrustResult>('/home/wizard/trust');

export const performanceKey = (period: PerformancePeriod) => ['home', 'performance', period] as const;
export const fetchPerformanceSeries = (period: PerformancePeriod) => get<PerformanceSeries | null>('/home/performance', { query: { period }, quiet: true });
