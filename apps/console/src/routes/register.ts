import { noQuerySchema, emptyBodySchema, registerBodySchema, type RegInfo } from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm, publicAccess } from '../http/access.ts';
import { failure, ok } from '../http/reply.ts';
import { getRegistration, invalidateRegistration, isRegistered, saveRegistration } from '../db/registration.ts';
import { licenceAgreement } from '../services/agreement.ts';
import { licenceErrorMessages, register } from '../services/registration.ts';

const registerRateLimit = { max: 10, timeWindow: '1 minute' };

export const registerRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/licence', { config: { access: publicAccess, beforeRegistration: true }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, licenceAgreement(request.lang)));

  app.post(
    '/register',
    { config: { access: publicAccess, beforeRegistration: true, rateLimit: registerRateLimit }, schema: { body: registerBodySchema } },
    async (request) => {
      if (isRegistered(ctx.db, ctx.now())) return failure(request, 'already_registered');
      const outcome = await register(ctx, request.body.key, request.body.confirm_move ?? false);
      return outcome.ok ? ok(request, outcome.result) : failure(request, outcome.msg);
    },
  );

  app.get('/system/reg', { config: { access: perm('system', 'get') }, schema: { querystring: noQuerySchema } }, async (request) => {
    const r = getRegistration(ctx.db)!;
    const info: RegInfo = {
      product_key: r.product_key, expires_at: r.expires_at, device_id: r.device_id, product_id: r.product_id,
      transfers_left: r.transfers_left, registered_at: r.registered_at, expired: r.expires_at <= ctx.now(),
    };
    return ok(request, info);
  });

  /** Renewal with a new code while registered; the admin account is untouched. */
  app.post(
    '/system/reg',
    { config: { access: perm('system', 'edit'), rateLimit: registerRateLimit }, schema: { body: registerBodySchema } },
    async (request) => {
      const outcome = await register(ctx, request.body.key, request.body.confirm_move ?? false);
      if (!outcome.ok) return failure(request, outcome.msg);
      return ok(request, outcome.result, outcome.result.status === 'registered' ? 'register_ok' : undefined);
    },
  );

  /** Asks the authority again: a new expiry, the relocations left, or that the code moved away. */
  app.post('/system/reg/refresh', { config: { access: perm('system', 'edit') }, schema: { body: emptyBodySchema } }, async (request) => {
    const current = getRegistration(ctx.db)!;
    const answer = await ctx.licence.status({ code: current.product_key, device_id: current.device_id });
    if (!answer.ok) {
      if (answer.error === 'moved') invalidateRegistration(ctx.db);
      if (answer.error === 'expired') saveRegistration(ctx.db, { ...current, expires_at: Math.min(current.expires_at, ctx.now()) });
      return failure(request, licenceErrorMessages[answer.error]);
    }
    saveRegistration(ctx.db, { ...current, expires_at: answer.value.expires_at, transfers_left: answer.value.transfers_left });
    return ok(request, undefined, 'reg_refreshed');
  });
};
