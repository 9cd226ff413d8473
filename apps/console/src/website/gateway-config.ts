import { gatewayConfigSchema, type GatewayConfig, type WebsiteSettings } from '@rampart/contracts';
import type { StoredSite } from './site-store.ts';

/**
 * The gateway's configuration file, built from the console's desired state. The settings groups
 * are module-wide, so every site gets the same block mode and block response; the engine's other
 * groups travel with the engine's own configuration (website-gateway.ts), not this file.
 * Site ids are `site-<row id>`, stable across edits, so a reload keeps a site's identity.
 */
export function buildGatewayConfig(sites: readonly StoredSite[], settings: WebsiteSettings): { ok: true; config: GatewayConfig } | { ok: false; reason: string } {
  const draft = {
    sites: sites.map((site) => ({
      id: `site-${site.id}`,
      name: site.name,
      status: site.status,
      running: site.running,
      listen: site.listen.map((l) => ({ address: l.address, port: l.port, ...(l.tls ? { tls: { cert: site.tls_cert, key: site.tls_key } } : {}) })),
      server_names: site.server_names,
      upstreams: site.upstreams.map((url) => ({ url })),
      trusted_proxies: site.trusted_proxies,
      block_mode: settings.base.block_mode,
      block_response: settings.response,
    })),
  };
  const parsed = gatewayConfigSchema.safeParse(draft);
  if (parsed.success) return { ok: true, config: parsed.data };
  const issue = parsed.error.issues[0];
  // Name the site the issue is about: `sites.2.listen…` is no help to a person.
  const index = issue?.path[0] === 'sites' && typeof issue.path[1] === 'number' ? issue.path[1] : undefined;
  const where = index === undefined ? '' : `${sites[index]?.name ?? ''}: `;
  return { ok: false, reason: `${where}${issue?.message ?? 'invalid'}` };
}
