import { gatewayConfigSchema, type GatewayConfig, type GatewayTimedLists, type TrojanLibrary, type WebsiteSettings } from '@rampart/contracts';
import type { StoredSite } from './site-store.ts';

/** Everything of the policy that is not a settings group or a site (policy-inputs.ts, cookie-secret.ts, timed-store.ts). */
export interface PolicyState {
  /** The website module's switch (console desired state, modules table). */
  module_on: boolean;
  /** System protection is on (agent `protection.get`; off or temporarily off = false). */
  protection_on: boolean;
  super_whitelist: string[];
  common_areas: { id: number; members: string[] }[];
  cookie_secret: string;
  timed: GatewayTimedLists;
  /** The trojan custom library (agent `trojan.library.get`) for the upload scan; absent or empty: not written. */
  custom_library?: TrojanLibrary;
}

/**
 * The gateway's configuration file, built from the console's desired state. The settings groups
 * are module-wide, so every site gets the same block mode and block response, and one `policy`
 * carries every group as stored (the authorization password only as its hash) with the super
 * whitelist, the common areas, the cookie secret and the timed lists.
 * Site ids are `site-<row id>`, stable across edits, so a reload keeps a site's identity.
 *
 * Module switched off, or system protection off / paused: every site is written with status off.
 * Choice (the spec says only that an off module stops protecting): sites keep their listeners and
 * keep proxying — switching protection off must not take the websites down — but nothing is
 * inspected, which is what status off means to the gateway. The sites' own statuses stay in the
 * database and come back as they were when the module or protection is on again.
 */
export function buildGatewayConfig(
  sites: readonly StoredSite[],
  settings: WebsiteSettings,
  policy: PolicyState,
): { ok: true; config: GatewayConfig } | { ok: false; reason: string } {
  const inspecting = policy.module_on && policy.protection_on;
  const draft = {
    sites: sites.map((site) => ({
      id: `site-${site.id}`,
      name: site.name,
      status: inspecting ? site.status : 'off',
      running: site.running,
      listen: site.listen.map((l) => ({ address: l.address, port: l.port, ...(l.tls ? { tls: { cert: site.tls_cert, key: site.tls_key } } : {}) })),
      server_names: site.server_names,
      upstreams: site.upstreams.map((url) => ({ url })),
      trusted_proxies: site.trusted_proxies,
      block_mode: settings.base.block_mode,
      block_response: settings.response,
    })),
    policy: {
      settings,
      super_whitelist: policy.super_whitelist,
      common_areas: policy.common_areas,
      cookie_secret: policy.cookie_secret,
      timed: policy.timed,
      // Only a library with something in it: a file without one stays as older builds wrote it (no reload on upgrade).
      ...(policy.custom_library && (policy.custom_library.rules.trim() || policy.custom_library.hashes.length > 0) ? { custom_library: policy.custom_library } : {}),
    },
  };
  const parsed = gatewayConfigSchema.safeParse(draft);
  if (parsed.success) return { ok: true, config: parsed.data };
  const issue = parsed.error.issues[0];
  // Name the site the issue is about: `sites.2.listen…` is no help to a person.
  const index = issue?.path[0] === 'sites' && typeof issue.path[1] === 'number' ? issue.path[1] : undefined;
  const where = index === undefined ? '' : `${sites[index]?.name ?? ''}: `;
  const path = issue?.path[0] === 'policy' ? `${issue.path.join('.')}: ` : '';
  return { ok: false, reason: `${where}${path}${issue?.message ?? 'invalid'}` };
}
