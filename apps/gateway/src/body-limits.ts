import { defaultInputLimits, type InputLimits } from '@rampart/waf';
import type { GatewaySite } from '@rampart/contracts';

/**
 * What the engine reads of a site's request bodies: as much as the gateway holds before deciding
 * (`inspect_body_kb`) and never less than the engine's own 1 MiB. An administrator who raises the
 * window for an API that posts large JSON gets it read, not reported unread.
 */
export function bodyLimitsFor(site: Pick<GatewaySite, 'inspect_body_kb'>): InputLimits {
  const bytes = site.inspect_body_kb * 1024;
  return bytes > defaultInputLimits.maxBodyBytes ? { ...defaultInputLimits, maxBodyBytes: bytes } : defaultInputLimits;
}
