import type { GatewayConfig } from '@rampart/contracts';
import type { ConsoleContext } from '../context.ts';
import { getModuleFlags } from '../db/modules.ts';
import { secretBox, type SecretBox } from '../security/secret-box.ts';
import { gatewayCookieSecret } from './cookie-secret.ts';
import { buildGatewayConfig } from './gateway-config.ts';
import type { GatewayPaths } from './gateway-link.ts';
import { AgentInputsCache, type AgentPolicyInputs } from './policy-inputs.ts';
import { readWebsiteSettings } from './settings-store.ts';
import { listSites } from './site-store.ts';
import { activeTimed } from './timed-store.ts';

/** What the website routes and the gateway poller share: where the gateway is, the secret box, the agent's last policy inputs. */
export interface WebsiteLink {
  ctx: ConsoleContext;
  paths: GatewayPaths;
  box: SecretBox;
  agentInputs: AgentInputsCache;
  /**
   * Runs writers of the gateway file one after another: a change, a pushed check and the periodic
   * check each read the agent's inputs, then write and reload; interleaved, one holding inputs read
   * before a protection pause could write after the check that carried the pause.
   */
  serial: <T>(job: () => Promise<T>) => Promise<T>;
}

export function createWebsiteLink(ctx: ConsoleContext, paths: GatewayPaths): WebsiteLink {
  let tail: Promise<unknown> = Promise.resolve();
  const serial = <T>(job: () => Promise<T>): Promise<T> => {
    const run = tail.then(job);
    tail = run.catch(() => undefined);
    return run;
  };
  return { ctx, paths, box: secretBox(ctx.db), agentInputs: new AgentInputsCache(ctx.agent, paths.configFile), serial };
}

/**
 * The gateway configuration the whole desired state leads to now. Synchronous on purpose: a change
 * builds it inside its transaction (apply.ts), so a state the gateway would refuse is not saved.
 */
export function desiredGatewayConfig(link: WebsiteLink, inputs: AgentPolicyInputs): { ok: true; config: GatewayConfig } | { ok: false; reason: string } {
  const { db } = link.ctx;
  return buildGatewayConfig(listSites(db, link.box), readWebsiteSettings(db), {
    module_on: getModuleFlags(db).website === 1,
    protection_on: inputs.protection_on,
    super_whitelist: inputs.super_whitelist,
    common_areas: inputs.common_areas,
    custom_library: inputs.custom_library,
    cookie_secret: gatewayCookieSecret(db, link.box),
    timed: activeTimed(db, link.ctx.now()),
  });
}
