import { alertQueueActionSchema, alertSettingsInputSchema, alertTestSchema, noQuerySchema } from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { failure, ok, refuse } from '../http/reply.ts';
import { alertDispatcher, alertText, testMessage } from '../services/alert-dispatcher.ts';
import { deliver, defaultPorts, methodReady, SmsQuotaExhausted } from '../services/alert-delivery.ts';
import { alertConfig, alertSettingsView, saveAlertSettings } from '../services/alert-settings.ts';

/** System settings, alerts tab: notification service, its methods, the queue of one, test sends. */
export const systemAlertRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/system/alerts', { config: { access: perm('system', 'get') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, alertSettingsView(ctx.db)));

  app.post(
    '/system/alerts',
    { config: { access: perm('system', 'edit') }, schema: { querystring: noQuerySchema, body: alertSettingsInputSchema } },
    async (request, reply) => {
      const problem = saveAlertSettings(ctx.db, request.body);
      if (problem) return refuse(reply, 400, problem.message, { field: problem.field });
      return ok(request, alertSettingsView(ctx.db), 'saved');
    },
  );

  app.get('/system/alerts/queue', { config: { access: perm('system', 'get') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, alertDispatcher(ctx).queue()));

  app.post(
    '/system/alerts/queue',
    { config: { access: perm('system', 'edit') }, schema: { querystring: noQuerySchema, body: alertQueueActionSchema } },
    async (request) => {
      alertDispatcher(ctx).clear();
      return ok(request, alertDispatcher(ctx).queue(), 'alert_queue_cleared');
    },
  );

  // A test goes out at once by the saved settings of one method, outside the interval and the queue.
  app.post(
    '/system/alerts/test',
    { config: { access: perm('system', 'edit') }, schema: { querystring: noQuerySchema, body: alertTestSchema } },
    async (request) => {
      const { method } = request.body;
      if (!methodReady(alertConfig(ctx.db), method)) return failure(request, 'alert_method_not_set');
      try {
        await deliver(ctx.db, method, alertText(ctx, testMessage(ctx, request.lang, method)), defaultPorts(ctx.now));
      } catch (error) {
        if (error instanceof SmsQuotaExhausted) return failure(request, 'alert_sms_quota_exhausted');
        return failure(request, 'alert_test_failed', { reason: (error as Error).message });
      }
      return ok(request, { remaining: alertConfig(ctx.db).sms.remaining }, 'alert_test_sent');
    },
  );
};
