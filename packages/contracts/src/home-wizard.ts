import { z } from 'zod';
import { stampParam } from './query-params.ts';

/*
 * The quick configuration wizard on the home page (issue 24). Its steps reuse existing calls (the
 * module switch, website discovery and add); this file holds only what is its own: whether it was
 * done or skipped (kept per panel in the console's settings) and the administrator's-address step.
 */

export const wizardStates = ['pending', 'done', 'skipped'] as const;
export type WizardState = (typeof wizardStates)[number];

/**
 * Where the caller's own address stands with the super whitelist: loopback needs no entry, a live
 * entry may already cover it, `unknown` when the agent does not answer.
 */
export const wizardAddressStates = ['loopback', 'trusted', 'untrusted', 'unknown'] as const;
export type WizardAddressState = (typeof wizardAddressStates)[number];

export const homeWizardViewSchema = z.object({
  state: z.enum(wizardStates),
  /** The address the panel sees for this caller: the one the whitelist step would add. */
  client_ip: z.string(),
  address: z.enum(wizardAddressStates),
});
export type HomeWizardView = z.infer<typeof homeWizardViewSchema>;

/** POST /home/wizard: the wizard was finished or skipped; either way it is not offered again by itself. */
export const homeWizardStateBodySchema = z.object({ state: z.enum(['done', 'skipped'], { message: 'wizard_state_invalid' }) }).strict();
export type HomeWizardStateBody = z.infer<typeof homeWizardStateBodySchema>;

/**
 * POST /home/wizard/trust takes no address: the console adds the caller's own address as the panel
 * sees it (one host, never a range), so the step cannot be turned into "trust everyone".
 */
export const homeWizardTrustResultSchema = z.object({ ip: z.string(), added: z.boolean(), address: z.enum(wizardAddressStates) });
export type HomeWizardTrustResult = z.infer<typeof homeWizardTrustResultSchema>;

/* Host performance over time: GET /home/performance?period=… */

export const performancePeriods = ['1h', '24h', '7d'] as const;
export type PerformancePeriod = (typeof performancePeriods)[number];

export const performanceQuerySchema = z.object({ period: z.enum(performancePeriods, { message: 'performance_period_invalid' }).optional(), ...stampParam }).strict();

/** One point: an average over its step. Percentages 0-100, load the 1-minute average, rates in bits per second. */
export const performancePointSchema = z.object({
  at: z.number().int(),
  cpu: z.number().min(0).max(100),
  memory: z.number().min(0).max(100),
  load: z.number().nonnegative(),
  rx: z.number().nonnegative(),
  tx: z.number().nonnegative(),
  /** Used share of the fullest local file system. */
  disk: z.number().min(0).max(100),
});
export type PerformancePoint = z.infer<typeof performancePointSchema>;

export const performanceSeriesSchema = z.object({
  period: z.enum(performancePeriods),
  /** Seconds each point covers: 10 s for 1 h, 1 min for 24 h, 1 h for 7 d. */
  step: z.number().int().positive(),
  points: z.array(performancePointSchema),
});
export type PerformanceSeries = z.infer<typeof performanceSeriesSchema>;

export const performanceAgentParams = { 'host.performance': z.object({ period: z.enum(performancePeriods) }).strict() } as const;
export const performanceAgentResults = { 'host.performance': performanceSeriesSchema } as const;
