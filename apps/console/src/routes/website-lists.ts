import { websiteTimedAddSchema, websiteTimedDeleteSchema, websiteTimedQuerySchema, noQuerySchema } from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { ok } from '../http/reply.ts';
import { addTimed, deleteTimed, listTimed, type TimedList } from '../website/timed-store.ts';

/**
 * The interception list and the authorization list (spec 7: `/website/intercept_list`,
 * `/website/author_list`): addresses with an end time. The console keeps them for now; the gateway
 * will report its own blocks and password grants later. Adding takes the body of
 * website-lists.ts (ips, minutes, remark) rather than the spec's query: addresses don't belong in
 * a URL (access logs, length), and the contract was written first.
 */
export const websiteListRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  for (const [name, list] of [['intercept_list', 'intercept'], ['author_list', 'author']] as const satisfies readonly (readonly [string, TimedList])[]) {
    app.get(`/website/${name}`, { config: { access: perm('website', 'query') }, schema: { querystring: websiteTimedQuerySchema } }, async (request) => {
      const size = request.query.size ?? 20;
      return ok(request, listTimed(ctx.db, list, ctx.now(), { keyword: request.query.keyword ?? '', offset: ((request.query.page ?? 1) - 1) * size, limit: size }));
    });
    app.post(`/website/${name}`, { config: { access: perm('website', 'add') }, schema: { querystring: noQuerySchema, body: websiteTimedAddSchema } }, async (request) => {
      const { ips, minutes, remark } = request.body;
      return ok(request, { added: addTimed(ctx.db, list, ips, minutes, remark, ctx.now()) }, 'saved');
    });
    app.post(`/website/${name}_delete`, { config: { access: perm('website', 'delete') }, schema: { querystring: noQuerySchema, body: websiteTimedDeleteSchema } }, async (request) =>
      ok(request, { deleted: deleteTimed(ctx.db, list, request.body.ips) }, 'wapi_deleted'));
  }
};
