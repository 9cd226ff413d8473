import { dynamicSettingsBodySchema, noQuerySchema, performanceQuerySchema } from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { getSetting, setSetting } from '../db/settings.ts';
import { perm } from '../http/access.ts';
import { ok } from '../http/reply.ts';

/**
 * Situational awareness (`/dynamic`, permission key `dynamic`): the figures are the agent's (its
 * event store's rollups, its host's sockets and samples); the sound and the server location are
 * panel preferences kept here. Reads are `query`; saving the preferences is `edit`.
 */
export const dynamicRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/dynamic/overview', { config: { access: perm('dynamic', 'query') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await ctx.agent.call('dynamic.overview', {})));
  app.get('/dynamic/connections', { config: { access: perm('dynamic', 'query') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await ctx.agent.call('dynamic.connections', {})));
  // The agent's host history (the same samples as the home page's); the last hour unless asked.
  app.get('/dynamic/performance', { config: { access: perm('dynamic', 'query') }, schema: { querystring: performanceQuerySchema } }, async (request) =>
    ok(request, await ctx.agent.call('host.performance', { period: request.query.period ?? '1h' })));
  app.get('/dynamic/settings', { config: { access: perm('dynamic', 'query') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, getSetting(ctx.db, 'dynamic_settings')));
  app.post('/dynamic/settings', { config: { access: perm('dynamic', 'edit') }, schema: { querystring: noQuerySchema, body: dynamicSettingsBodySchema } }, async (request) => {
    setSetting(ctx.db, 'dynamic_settings', request.body.settings);
    return ok(request, getSetting(ctx.db, 'dynamic_settings'), 'saved');
  });
};
