import type { Envelope, MessageKey, WebsiteGatewayReport } from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { ConsoleContext } from '../context.ts';
import { transaction } from '../db/database.ts';
import { failure, ok, warning } from '../http/reply.ts';
import type { SecretBox } from '../security/secret-box.ts';
import { buildGatewayConfig } from './gateway-config.ts';
import { reloadGateway, writeGatewayConfig, type GatewayPaths } from './gateway-link.ts';
import { readWebsiteSettings } from './settings-store.ts';
import { listSites } from './site-store.ts';

/** A refusal decided inside the change (unknown site, …): rolls the transaction back. */
export class WebsiteRefusal extends Error {
  readonly key: MessageKey;
  readonly params: Record<string, string | number>;
  constructor(key: MessageKey, params: Record<string, string | number> = {}) {
    super(key);
    this.key = key;
    this.params = params;
  }
}

/**
 * One change of the desired state, end to end: the change and the configuration it leads to are
 * checked in one transaction (a configuration the gateway's schema rejects saves nothing), the
 * file is written before anything else can run (so files land in commit order), then a running
 * gateway is asked to reload. Its refusal is a warning: the change is saved, the gateway keeps its
 * previous configuration, the user reads why.
 */
export async function applyWebsiteChange<T extends object>(
  ctx: ConsoleContext,
  box: SecretBox,
  paths: GatewayPaths,
  request: FastifyRequest,
  change: () => T,
): Promise<Envelope<T & { gateway: WebsiteGatewayReport }>> {
  let result: T;
  try {
    result = transaction(ctx.db, () => {
      const value = change();
      const built = buildGatewayConfig(listSites(ctx.db, box), readWebsiteSettings(ctx.db));
      if (!built.ok) throw new WebsiteRefusal('wapi_config_rejected', { reason: built.reason });
      writeGatewayConfig(paths.configFile, built.config);
      return value;
    });
  } catch (error) {
    if (error instanceof WebsiteRefusal) return failure(request, error.key, error.params);
    throw error;
  }
  const gateway = await reloadGateway(paths.adminSocket);
  if (gateway.state === 'refused') return warning(request, 'wapi_gateway_refused', { ...result, gateway }, { reason: gateway.reason ?? '' });
  if (gateway.state === 'unreachable') return warning(request, 'wapi_gateway_unreachable', { ...result, gateway }, { reason: gateway.reason ?? '' });
  return ok(request, { ...result, gateway }, 'saved');
}
