import {
  emptyBodySchema, homeWizardStateBodySchema, noQuerySchema,
  type HomeWizardTrustResult, type HomeWizardView, type WizardAddressState,
} from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { failure, ok } from '../http/reply.ts';
import { getSetting, setSetting } from '../db/settings.ts';
import { clientAddress, isLoopback } from '../portal/addresses.ts';

/** Where the caller's own address stands: loopback needs no entry; `unknown` when the agent does not answer. */
async function addressState(ctx: ConsoleContext, ip: string): Promise<WizardAddressState> {
  if (isLoopback(ip)) return 'loopback';
  try {
    return (await ctx.agent.call('trust.check', { ip })).trusted ? 'trusted' : 'untrusted';
  } catch {
    return 'unknown';
  }
}

/**
 * The quick configuration wizard's own calls (issue 24). Its module and website steps use the
 * existing calls (/module_switch, /website/server/discover, /website/server); these keep whether it
 * was done and add the caller's own address to the super whitelist.
 */
export const homeWizardRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/home/wizard', { config: { access: perm('home', 'get') }, schema: { querystring: noQuerySchema } }, async (request) => {
    const ip = clientAddress(request.ip);
    const view: HomeWizardView = { state: getSetting(ctx.db, 'wizard_state'), client_ip: ip, address: await addressState(ctx, ip) };
    return ok(request, view);
  });

  app.post('/home/wizard', { config: { access: perm('home', 'edit') }, schema: { querystring: noQuerySchema, body: homeWizardStateBodySchema } }, async (request) => {
    setSetting(ctx.db, 'wizard_state', request.body.state);
    return ok(request, { state: request.body.state });
  });

  // Lock-out safety: the address is the one this request came from, as a single host; the body carries none.
  app.post('/home/wizard/trust', { config: { access: perm('system', 'add') }, schema: { querystring: noQuerySchema, body: emptyBodySchema } }, async (request) => {
    const ip = clientAddress(request.ip);
    if (!ip) return failure(request, 'wizard_trust_no_address');
    const before = await addressState(ctx, ip);
    if (before === 'unknown') return failure(request, 'agent_unreachable');
    if (before !== 'untrusted') {
      const result: HomeWizardTrustResult = { ip, added: false, address: before };
      return ok(request, result, before === 'loopback' ? 'wizard_trust_loopback' : 'wizard_trust_already', { ip });
    }
    const { changed } = await ctx.agent.call('trust.add', {
      addresses: [ip], added_by: request.user?.username ?? '', remark: '', expires_at: null, source: 'manual',
    });
    // The website gateway lets the super whitelist through: it learns the change now.
    if (changed > 0) ctx.policy.changed();
    const result: HomeWizardTrustResult = { ip, added: changed > 0, address: 'trusted' };
    return ok(request, result, changed > 0 ? 'wizard_trust_added' : 'wizard_trust_already', { ip });
  });
};
