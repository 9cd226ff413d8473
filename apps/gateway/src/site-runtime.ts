import { createSecureContext, type SecureContext } from 'node:tls';
import type { GatewayConfig, GatewaySite } from '@rampart/contracts';
import { parseTrustedProxies, type TrustedProxies } from './client-ip.ts';
import { UpstreamPool } from './upstream-pool.ts';

/** A site as a worker runs it: the parsed, ready-to-use parts of its configuration. */
export interface SiteRuntime {
  site: GatewaySite;
  pool: UpstreamPool;
  trusted: TrustedProxies;
}

export function buildSiteRuntime(site: GatewaySite, config: GatewayConfig): SiteRuntime {
  return {
    site,
    pool: new UpstreamPool(site.upstreams.map((u) => u.url), config.upstream_fail_ms, config.timeouts.idle_ms, { connectMs: config.timeouts.upstream_connect_ms }),
    trusted: parseTrustedProxies(site.trusted_proxies),
  };
}

/** One socket the gateway binds and the sites reached through it. */
export interface ListenerPlan {
  key: string;
  address: string;
  port: number;
  tls: boolean;
  sites: SiteRuntime[];
  /** Certificates by server name pattern, for SNI; the first is the default. */
  certs: { names: string[]; context: SecureContext; cert: string; key: string }[];
}

/**
 * Groups the sites by the address and port they listen on. Throws (with the site named) when a
 * certificate or key does not load, so a bad file is refused before anything changes.
 */
export function planListeners(config: GatewayConfig): ListenerPlan[] {
  const plans = new Map<string, ListenerPlan>();
  for (const site of config.sites.filter((s) => s.running)) {
    const runtime = buildSiteRuntime(site, config);
    for (const l of site.listen) {
      const key = `${l.address}:${l.port}`;
      let plan = plans.get(key);
      if (!plan) {
        plan = { key, address: l.address, port: l.port, tls: l.tls !== undefined, sites: [], certs: [] };
        plans.set(key, plan);
      }
      if (!plan.sites.includes(runtime)) plan.sites.push(runtime);
      if (l.tls) {
        let context: SecureContext;
        try {
          context = createSecureContext({ cert: l.tls.cert, key: l.tls.key });
        } catch (err) {
          throw new Error(`site ${site.id}: TLS certificate or key on ${key} does not load: ${(err as Error).message}`);
        }
        plan.certs.push({ names: site.server_names, context, cert: l.tls.cert, key: l.tls.key });
      }
    }
  }
  return [...plans.values()];
}
