import {
  noQuerySchema, productName, totpCodeBodySchema, totpNewBodySchema, type TotpEnrolment, type TotpStatus,
} from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { sessionAccess } from '../http/access.ts';
import { failure, ok } from '../http/reply.ts';
import { findUserById } from '../db/users.ts';
import { verifyPassword } from '../security/passwords.ts';
import { deleteTotp, findTotp, startTotp, useTotpStep } from './totp-store.ts';
import { matchTotp, newTotpSecret, otpauthUri } from './totp.ts';

/** Codes are six digits: a session guessing at them is slowed like a sign-in. */
const codeRateLimit = { max: 20, timeWindow: '1 minute' };

/**
 * Each signed-in account enrols its own authenticator app (header → two-step verification).
 * The secret leaves the console once, in the answer that starts the enrolment; it is active only
 * after a first code proves the app holds it, and turning it off takes a current code too.
 */
export const totpRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/login/totp', { config: { access: sessionAccess }, schema: { querystring: noQuerySchema } }, async (request) => {
    const status: TotpStatus = { enabled: findTotp(ctx.db, request.user!.id)?.active === true };
    return ok(request, status);
  });

  app.post(
    '/login/totp/new',
    { config: { access: sessionAccess, rateLimit: codeRateLimit }, schema: { body: totpNewBodySchema } },
    async (request) => {
      const user = findUserById(ctx.db, request.user!.id);
      if (!user || !(await verifyPassword(user.password_hash, request.body.password))) return failure(request, 'password_old_wrong');
      if (findTotp(ctx.db, user.id)?.active) return failure(request, 'vc_totp_already');
      const secret = newTotpSecret();
      startTotp(ctx.db, user.id, secret, ctx.now());
      const enrolment: TotpEnrolment = { secret, uri: otpauthUri(productName, user.username, secret) };
      return ok(request, enrolment);
    },
  );

  app.post(
    '/login/totp/confirm',
    { config: { access: sessionAccess, rateLimit: codeRateLimit }, schema: { body: totpCodeBodySchema } },
    async (request) => {
      const userId = request.user!.id;
      const enrolment = findTotp(ctx.db, userId);
      if (!enrolment) return failure(request, 'vc_totp_not_started');
      if (enrolment.active) return failure(request, 'vc_totp_already');
      const step = matchTotp(enrolment.secret, request.body.code, ctx.now(), enrolment.lastStep);
      if (step === null || !useTotpStep(ctx.db, userId, step, true)) return failure(request, 'vc_totp_code_wrong');
      return ok(request, undefined, 'vc_totp_enabled');
    },
  );

  app.post(
    '/login/totp/disable',
    { config: { access: sessionAccess, rateLimit: codeRateLimit }, schema: { body: totpCodeBodySchema } },
    async (request) => {
      const userId = request.user!.id;
      const enrolment = findTotp(ctx.db, userId);
      if (!enrolment?.active) return failure(request, 'vc_totp_not_enabled');
      const step = matchTotp(enrolment.secret, request.body.code, ctx.now(), enrolment.lastStep);
      if (step === null || !useTotpStep(ctx.db, userId, step)) return failure(request, 'vc_totp_code_wrong');
      deleteTotp(ctx.db, userId);
      return ok(request, undefined, 'vc_totp_disabled');
    },
  );
};
