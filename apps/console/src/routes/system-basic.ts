import {
  basicSettingsSchema, noQuerySchema, ntpBodySchema, protectionBodySchema, type BasicView,
} from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { failure, ok } from '../http/reply.ts';
import { getSetting, setSetting } from '../db/settings.ts';
import { readProtection, setProtection } from '../services/protection.ts';

/** A sync tries every server (up to 10, each address up to 3 s): the call waits longer than an ordinary one. */
const syncTimeoutMs = 90_000;

/**
 * System settings, basic tab: the server alias and the length of a temporary disable (console
 * settings), system protection (the agent's), and NTP time sync (the agent's, it sets the clock).
 */
export const systemBasicRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  const view = async (): Promise<BasicView> => ({
    server_alias: getSetting(ctx.db, 'server_alias'),
    temp_minutes: getSetting(ctx.db, 'temp_minutes'),
    protection: await readProtection(ctx),
  });

  app.get('/system/basic', { config: { access: perm('system', 'get') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await view()));

  app.post('/system/basic', { config: { access: perm('system', 'edit') }, schema: { querystring: noQuerySchema, body: basicSettingsSchema } }, async (request) => {
    setSetting(ctx.db, 'server_alias', request.body.server_alias);
    setSetting(ctx.db, 'temp_minutes', request.body.temp_minutes);
    return ok(request, await view(), 'saved');
  });

  app.post(
    '/system/basic/protection',
    // The agent records who paused or resumed protection (and from where): a more telling event than the audit line.
    { config: { access: perm('system', 'edit'), audit: false }, schema: { querystring: noQuerySchema, body: protectionBodySchema } },
    async (request) => {
      const { mode } = request.body;
      const minutes = mode === 'temp_off' ? (request.body.minutes ?? getSetting(ctx.db, 'temp_minutes')) : undefined;
      const state = await setProtection(ctx, mode, minutes, { account: request.user?.username ?? '', ip: request.ip });
      const msg = mode === 'temp_off' ? 'protection_paused' : mode === 'off' ? 'protection_stopped' : 'protection_resumed';
      return ok(request, state, msg, { minutes: minutes ?? 0 });
    },
  );

  app.get('/system/basic/ntp', { config: { access: perm('system', 'get') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await ctx.agent.call('ntp.get', {})));

  app.post('/system/basic/ntp', { config: { access: perm('system', 'edit') }, schema: { querystring: noQuerySchema, body: ntpBodySchema } }, async (request) => {
    const { settings, sync } = request.body;
    let result = settings ? await ctx.agent.call('ntp.set', { settings }) : null;
    if (!sync) return ok(request, result, 'saved');
    result = await ctx.agent.call('ntp.sync', {}, { timeoutMs: syncTimeoutMs });
    // The page reads the status again to show which servers failed and why.
    if (result.status.state !== 'success') return failure(request, 'ntp_failed');
    return ok(request, result, 'ntp_synced', { server: result.status.server });
  });
};
