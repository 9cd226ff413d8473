import { productName } from '@rampart/contracts';

export interface RouteHandle {
  /** Locale key of the page title. */
  titleKey: string;
}

export const titled = (titleKey: string): RouteHandle => ({ titleKey });

/** "[server alias - ]page title - Rampart" (spec, section 2). */
export function documentTitle(pageTitle: string | undefined, serverAlias?: string): string {
  return [serverAlias, pageTitle, productName].filter((p) => p && p.trim()).join(' - ');
}
