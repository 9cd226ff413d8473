import { backupRulesInputSchema, emptyBodySchema, logSettingsSchema, noQuerySchema } from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { failure, ok } from '../http/reply.ts';

/** Each rule's upload has its own timeout in the agent; this bounds a run over several rules. */
const backupRunTimeoutMs = 10 * 60 * 1000;

/**
 * Logging settings (shown on the system basic tab: log mode, keep days, disk alert, syslog) and
 * log-backup rules (the system log tab). The agent owns both, beside the event store.
 */
export const systemLogRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/system/log', { config: { access: perm('system', 'get') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await ctx.agent.call('logs.settings.get', {})));

  app.post('/system/log', { config: { access: perm('system', 'edit') }, schema: { querystring: noQuerySchema, body: logSettingsSchema } }, async (request) =>
    ok(request, await ctx.agent.call('logs.settings.set', { settings: request.body }), 'saved'));

  app.get('/system/log_backup', { config: { access: perm('system', 'get') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await ctx.agent.call('logs.backup.get', {})));

  app.post(
    '/system/log_backup',
    { config: { access: perm('system', 'edit') }, schema: { querystring: noQuerySchema, body: backupRulesInputSchema } },
    async (request) => ok(request, await ctx.agent.call('logs.backup.set', request.body), 'saved'),
  );

  app.post(
    '/system/log_backup/run',
    { config: { access: perm('system', 'edit') }, schema: { querystring: noQuerySchema, body: emptyBodySchema } },
    async (request) => {
      const { results } = await ctx.agent.call('logs.backup.run', {}, { timeoutMs: backupRunTimeoutMs });
      if (results.length === 0) return failure(request, 'backup_nothing');
      const passed = results.filter((r) => r.ok).length;
      return ok(request, { results }, 'backup_run_done', { ok: passed, failed: results.length - passed });
    },
  );
};
