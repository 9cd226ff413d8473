import type { GatewaySite } from '@rampart/contracts';
import type { AttackKind, Decision, WafRequest } from '@rampart/waf';

/** What the inspector learns about the site a request is for. */
export type InspectedSite = Pick<GatewaySite, 'id' | 'block_mode' | 'inspect_body_kb'>;

/**
 * The engine as the gateway sees it. The real one is `inspect` of @rampart/waf; anything with this
 * shape can stand in (tests, a no-op). It may be async (DNS checks of fake spiders, counters).
 */
export interface Inspector {
  inspect(request: WafRequest, site: InspectedSite, options?: InspectorOptions): Decision | Promise<Decision>;
}

/** What the policy adds to a site's block mode: which detectors run (absent = all). */
export interface InspectorOptions {
  kinds?: readonly AttackKind[];
}

/** Lets everything through: what a site with status off effectively gets. */
export const passInspector: Inspector = { inspect: () => ({ action: 'pass' }) };

/** One blocked (or recorded) request, for the event store. */
export interface GatewayEvent {
  type: 'website.block' | 'website.record' | 'website.challenge';
  siteId: string;
  incidentId: string;
  at: number;
  clientIp: string;
  method: string;
  target: string;
  host: string | undefined;
  decision: Decision;
}

export type OnGatewayEvent = (event: GatewayEvent) => void;
