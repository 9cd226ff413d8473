import type { Envelope, MessageKey, WebsiteGatewayReport } from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import { transaction } from '../db/database.ts';
import { failure, ok, warning } from '../http/reply.ts';
import { reloadGateway, writeGatewayConfig } from './gateway-link.ts';
import { desiredGatewayConfig, type WebsiteLink } from './website-link.ts';

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
 * previous configuration, the user reads why. The agent's part of the policy (super whitelist,
 * common areas, protection) is read first, outside the transaction (policy-inputs.ts).
 */
export function applyWebsiteChange<T extends object>(
  link: WebsiteLink,
  request: FastifyRequest,
  change: () => T,
): Promise<Envelope<T & { gateway: WebsiteGatewayReport }>> {
  return link.serial(() => applyNow(link, request, change));
}

async function applyNow<T extends object>(link: WebsiteLink, request: FastifyRequest, change: () => T): Promise<Envelope<T & { gateway: WebsiteGatewayReport }>> {
  const { ctx, paths } = link;
  const inputs = await link.agentInputs.current(ctx.now());
  let result: T;
  try {
    result = transaction(ctx.db, () => {
      const value = change();
      const built = desiredGatewayConfig(link, inputs);
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
