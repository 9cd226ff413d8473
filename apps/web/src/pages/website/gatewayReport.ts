import { useSyncExternalStore } from 'react';
import type { WebsiteGatewayReport } from '@rampart/contracts';

/*
 * What the gateway said about the last website change of this page session. The console's warning
 * dialog closes by itself after 3 s, but a refused configuration stays refused (the gateway keeps
 * serving the previous one) until a later change is taken: the website tabs show it as a banner
 * until then. Kept in memory only: after a reload the next change tells again.
 */

let last: WebsiteGatewayReport | null = null;
const listeners = new Set<() => void>();

function hasReport(data: unknown): data is { gateway: WebsiteGatewayReport } {
  const gateway = (data as { gateway?: { state?: unknown } } | null | undefined)?.gateway;
  return typeof gateway?.state === 'string';
}

/** Records the report a change answered (`data.gateway`); answers without one change nothing. */
export function noteGatewayReport(data: unknown): void {
  if (!hasReport(data)) return;
  last = data.gateway.state === 'reloaded' ? null : data.gateway;
  for (const listener of listeners) listener();
}

/** The last report that needs the user's attention (refused, unreachable, not running), or null. */
export function useGatewayReport(): WebsiteGatewayReport | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => last,
  );
}
