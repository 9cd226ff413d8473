import {
  firewallConfirmBodySchema,
  noQuerySchema,
  probationSeconds,
  remoteAccessBodySchema,
  remoteBruteforceBodySchema,
  type FirewallChange,
  type FirewallGuard,
} from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { failure, ok, warning } from '../http/reply.ts';

/** Where the administrator is, so the agent keeps them reachable (as the firewall's routes do). */
function guardOf(request: FastifyRequest): FirewallGuard {
  const port = Number(request.socket.localPort) || 6688;
  return { admin_ip: request.ip || null, panel_port: port, account: request.user?.username ?? '' };
}

/** Remote-login protection (`/remote`): access rule (sources, areas, windows, login notice), brute-force limit. */
export const remoteRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  const call = ctx.agent.call.bind(ctx.agent);

  app.get('/remote/settings', { config: { access: perm('remote', 'query') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await call('remote.get', {})));

  app.post('/remote/access', { config: { access: perm('remote', 'edit') }, schema: { querystring: noQuerySchema, body: remoteAccessBodySchema } }, async (request) => {
    const guard = guardOf(request);
    const change: FirewallChange = await call('remote.access.set', { access: request.body, guard });
    if (change.refused) return failure(request, change.refused);
    if (change.probation) return warning(request, 'fw_probation_notice', change, { ip: guard.admin_ip ?? '', seconds: probationSeconds });
    // Saved; the spec's warning when the module is on and nobody is authorized.
    const view = await call('remote.get', {});
    if (view.warnings.includes('remote_nothing_authorized')) return warning(request, 'remote_nothing_authorized', change);
    return ok(request, change, 'remote_saved');
  });

  app.post('/remote/bruteforce', { config: { access: perm('remote', 'edit') }, schema: { querystring: noQuerySchema, body: remoteBruteforceBodySchema } }, async (request) =>
    ok(request, await call('remote.bruteforce.set', { bruteforce: request.body }), 'remote_saved'));

  /** Keeping a remote change that is on probation (the firewall's probation desk holds it). */
  app.post('/remote/confirm', { config: { access: perm('remote', 'edit') }, schema: { querystring: noQuerySchema, body: firewallConfirmBodySchema } }, async (request) => {
    const { confirmed } = await call('firewall.confirm', { token: request.body.token });
    return confirmed ? ok(request, { confirmed }, 'fw_confirmed') : failure(request, 'fw_probation_gone');
  });
};
