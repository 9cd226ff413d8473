import type { KernelUpdateResult, ReleaseBody, ReleaseView, VirlibUpdateResult } from '@rampart/contracts';
import { get, post } from '../../../api/http.ts';

/* The home page's update calls (apps/console/src/routes/home-update.ts). */

/** A helper rebuild compiles C and BPF: minutes, not the usual seconds. */
export const updateKernel = () => post<KernelUpdateResult>('/home/update_kernel', undefined, { timeoutMs: 6 * 60_000 });
export const updateVirlib = () => post<VirlibUpdateResult>('/home/update_virlib', undefined, { timeoutMs: 5 * 60_000 });
/** With `check`, the source is asked now (its answer shows as a message); without, the state as it stands (polled quietly). */
export const fetchRelease = (check: boolean) => get<ReleaseView>('/home/update', check ? { query: { check: 1 }, timeoutMs: 35_000 } : { quiet: true });
export const postRelease = (body: ReleaseBody) => post<ReleaseView>('/home/update', body);
export const releaseKey = ['home', 'update'] as const;
