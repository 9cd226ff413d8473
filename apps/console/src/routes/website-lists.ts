import { websiteTimedAddSchema, websiteTimedDeleteSchema, websiteTimedQuerySchema, noQuerySchema, type GatewayTimedCommand, type MessageKey } from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { ok, warning } from '../http/reply.ts';
import { sendTimedCommand } from '../website/gateway-link.ts';
import { rewriteTimedLists } from '../website/policy-sync.ts';
import { deleteTimed, listTimed, manualEntries, putTimed, type TimedList } from '../website/timed-store.ts';
import type { WebsiteLink } from '../website/website-link.ts';

/**
 * The interception list and the authorization list (spec 7: `/website/intercept_list`,
 * `/website/author_list`): addresses with an end time. The gateway adds its own (its blocks and
 * password grants, drained by website/gateway-events.ts); these calls add and remove by hand.
 * Adding takes the body of website-lists.ts (ips, minutes, remark) rather than the spec's query:
 * addresses don't belong in a URL (access logs, length), and the contract was written first.
 *
 * A change by hand is saved, then sent to the running gateway as `timed <json>` — applied there at
 * once, without a reload (a reload restarts the workers) — and written into the gateway file's
 * lists for a gateway that starts later. Not running: fine, it starts from the file. Refused or
 * unreachable: saved, and the user reads that it takes effect at the next reload or start.
 */
export const websiteListRoutes = (ctx: ConsoleContext, link: WebsiteLink): FastifyPluginAsyncZod => async (app) => {
  const tell = async <T extends object>(request: FastifyRequest, command: GatewayTimedCommand, data: T, saved: MessageKey) => {
    rewriteTimedLists(link);
    const gateway = await sendTimedCommand(link.paths.adminSocket, command);
    if (gateway.state === 'refused' || gateway.state === 'unreachable') return warning(request, 'web_timed_not_applied', { ...data, gateway }, { reason: gateway.reason });
    return ok(request, { ...data, gateway }, saved);
  };
  const gatewayList = { intercept: 'intercepted', author: 'authorized' } as const;

  for (const [name, list] of [['intercept_list', 'intercept'], ['author_list', 'author']] as const satisfies readonly (readonly [string, TimedList])[]) {
    app.get(`/website/${name}`, { config: { access: perm('website', 'query') }, schema: { querystring: websiteTimedQuerySchema } }, async (request) => {
      const size = request.query.size ?? 20;
      return ok(request, listTimed(ctx.db, list, ctx.now(), { keyword: request.query.keyword ?? '', offset: ((request.query.page ?? 1) - 1) * size, limit: size }));
    });
    app.post(`/website/${name}`, { config: { access: perm('website', 'add') }, schema: { querystring: noQuerySchema, body: websiteTimedAddSchema } }, async (request) => {
      const { ips, minutes, remark } = request.body;
      const entries = manualEntries(ips, minutes, remark, ctx.now());
      const added = putTimed(ctx.db, list, entries, ctx.now());
      return tell(request, { op: 'add', list: gatewayList[list], entries }, { added }, 'saved');
    });
    app.post(`/website/${name}_delete`, { config: { access: perm('website', 'delete') }, schema: { querystring: noQuerySchema, body: websiteTimedDeleteSchema } }, async (request) => {
      const ips = [...new Set(request.body.ips)];
      const deleted = deleteTimed(ctx.db, list, ips);
      return tell(request, { op: 'remove', list: gatewayList[list], ips }, { deleted }, 'wapi_deleted');
    });
  }
};
