import { createSecureContext, type SecureContext } from 'node:tls';
import type { GatewayConfig, GatewaySite } from '@rampart/contracts';
import { compilePolicy, type AttackKind, type CompiledPolicy } from '@rampart/waf';
import { parseTrustedProxies, type TrustedProxies } from './client-ip.ts';
import { UpstreamPool } from './upstream-pool.ts';

/** A site as a worker runs it: the parsed, ready-to-use parts of its configuration. */
export interface SiteRuntime {
  site: GatewaySite;
  pool: UpstreamPool;
  trusted: TrustedProxies;
  /**
   * The module-wide settings groups, compiled once per configuration and shared by every site (the
   * site keeps its own block mode and block response); null = detection only, as before policies.
   */
  policy: SitePolicy | null;
}

/** The compiled policy with the key of the gateway's own cookies and form tokens. */
export interface SitePolicy {
  compiled: CompiledPolicy;
  /** policy.cookie_secret as bytes (HMAC-SHA256 key of the CC pass cookie and the form tokens). */
  secret: Buffer;
  /** The detectors to run (sql tab + attack tab), as the engine's `kinds` option takes them. */
  kinds: readonly AttackKind[];
  /** Headers the detectors read (attack tab; Cookie is always read), lower case. */
  attackHeaders: ReadonlySet<string>;
}

/** Compiles the configuration's policy once (every site of the configuration shares the result). */
export function compileGatewayPolicy(config: GatewayConfig): SitePolicy | null {
  const policy = config.policy;
  if (!policy) return null;
  const commonAreas = new Map(policy.common_areas.map((area) => [area.id, area.members] as const));
  const compiled = compilePolicy(policy.settings, { superWhitelist: policy.super_whitelist, commonAreas });
  return {
    compiled,
    secret: Buffer.from(policy.cookie_secret, 'hex'),
    kinds: [...compiled.attackKinds],
    attackHeaders: new Set(policy.settings.attack.headers.map((h) => h.toLowerCase())),
  };
}

export function buildSiteRuntime(site: GatewaySite, config: GatewayConfig, policy: SitePolicy | null = compileGatewayPolicy(config)): SiteRuntime {
  return {
    site,
    pool: new UpstreamPool(site.upstreams.map((u) => u.url), config.upstream_fail_ms, config.timeouts.idle_ms, { connectMs: config.timeouts.upstream_connect_ms }),
    trusted: parseTrustedProxies(site.trusted_proxies),
    policy,
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
  const policy = compileGatewayPolicy(config);
  for (const site of config.sites.filter((s) => s.running)) {
    const runtime = buildSiteRuntime(site, config, policy);
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
