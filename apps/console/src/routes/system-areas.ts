import { commonAreaInputSchema, commonAreasDeleteQuerySchema, commonAreasQuerySchema, emptyBodySchema, noQuerySchema, probationSeconds, type FirewallGuard } from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { failure, ok, warning } from '../http/reply.ts';

/**
 * System settings, common areas: named sets of countries and Chinese provinces that firewall
 * rules use as `common:<id>`. They live in the agent, beside the rules (the kernel is rebuilt from
 * there at boot). Saving an area that rules use re-applies them, guarded like any firewall change.
 */
export const systemAreaRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/system/areas', { config: { access: perm('system', 'get') }, schema: { querystring: commonAreasQuerySchema } }, async (request) => {
    const { keyword, page = 1, size = 20 } = request.query;
    return ok(request, await ctx.agent.call('areas.list', { ...(keyword ? { keyword } : {}), offset: (page - 1) * size, limit: size }));
  });

  /** Add (no id) or edit (with the id). */
  app.post('/system/areas', { config: { access: perm('system', 'edit') }, schema: { querystring: noQuerySchema, body: commonAreaInputSchema } }, async (request) => {
    // Injected test requests have no socket port: the default panel port stands in.
    const guard: FirewallGuard = { admin_ip: request.ip || null, panel_port: Number(request.socket.localPort) || 6688, account: request.user?.username ?? '' };
    const change = await ctx.agent.call('areas.save', { area: request.body, guard });
    if (change.refused) return failure(request, change.refused);
    // The website lists may name this area: the gateway learns its members now.
    ctx.policy.changed();
    if (change.probation) return warning(request, 'fw_probation_notice', change, { ip: guard.admin_ip ?? '', seconds: probationSeconds });
    if (change.warnings.includes('own_ip_blocked')) return warning(request, 'fw_own_ip_blocked', change);
    return ok(request, change, 'saved');
  });

  app.post(
    '/system/areas_delete',
    { config: { access: perm('system', 'delete') }, schema: { querystring: commonAreasDeleteQuerySchema, body: emptyBodySchema } },
    async (request) => {
      const result = await ctx.agent.call('areas.delete', { ids: request.query.id });
      if (result.refused) return failure(request, result.refused, { rules: result.rules });
      if (result.changed === 0) return failure(request, 'area_not_found');
      ctx.policy.changed();
      return ok(request, result, 'area_deleted', { count: result.changed });
    },
  );
};
