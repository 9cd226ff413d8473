import type { PortalSaveInput, PortalSaveResult, PortalView } from '@rampart/contracts';
import { get, post } from '../../api/http.ts';

/* The portal tab's calls (GET/POST /system/portal). Shapes are the schemas of system-portal.ts. */

export const portalKey = ['system', 'portal'] as const;

export const fetchPortal = () => get<PortalView>('/system/portal');
/**
 * Quiet: the page shows the answer itself — the warnings to confirm, the restart progress, the
 * field a refusal names — instead of the generic modals.
 */
export const savePortal = (input: PortalSaveInput) => post<PortalSaveResult>('/system/portal', input, { quiet: true });
