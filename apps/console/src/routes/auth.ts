import { noQuerySchema, emptyBodySchema, loginBodySchema, setPasswordBodySchema, permissionsOf, type LoginConfig, type LoginResult } from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { publicAccess, sessionAccess } from '../http/access.ts';
import { failure, ok } from '../http/reply.ts';
import { findUserByName, recordLogin, setPasswordHash } from '../db/users.ts';
import { deleteSession, deleteUserSessions, insertSession } from '../db/sessions.ts';
import { addFailure, clearFailures, failuresToday } from '../db/login-failures.ts';
import { getSetting } from '../db/settings.ts';
import { isRegistered } from '../db/registration.ts';
import { decoyPasswordHash, hashPassword, verifyPassword } from '../security/passwords.ts';
import { hashToken, newToken } from '../security/tokens.ts';

/** Sign-in attempts per IP per minute, on top of the per-day lock-out. */
const signInRateLimit = { max: 20, timeWindow: '1 minute' };

export const authRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/login', { config: { access: publicAccess, beforeRegistration: true }, schema: { querystring: noQuerySchema } }, async (request) => {
    const config: LoginConfig = {
      registered: isRegistered(ctx.db, ctx.now()),
      check_mode: getSetting(ctx.db, 'login_check_mode'),
    };
    return ok(request, config);
  });

  app.post(
    '/login',
    { config: { access: publicAccess, rateLimit: signInRateLimit }, schema: { body: loginBodySchema } },
    async (request) => {
      const { username, password } = request.body;
      const now = ctx.now();
      const signIn = (kind: 'panel.login_ok' | 'panel.login_failed' | 'panel.login_locked', level: 'info' | 'warning' | 'critical') =>
        ctx.events.record({ kind, module: 'system', level, source: 'console', account: username, ip: request.ip, params: { account: username, ip: request.ip } });
      const limit = getSetting(ctx.db, 'login_error_count');
      if (limit > 0 && failuresToday(ctx.db, request.ip, now) >= limit) {
        signIn('panel.login_locked', 'critical');
        return failure(request, 'login_locked');
      }

      const user = findUserByName(ctx.db, username);
      const passwordOk = user
        ? await verifyPassword(user.password_hash, password)
        : (await verifyPassword(await decoyPasswordHash(), password), false);
      if (!user || !passwordOk) {
        const count = addFailure(ctx.db, request.ip, now);
        signIn('panel.login_failed', 'warning');
        if (limit === 0) return failure(request, 'login_failed');
        return count >= limit ? failure(request, 'login_locked') : failure(request, 'login_failed_left', { left: limit - count });
      }
      if (user.status !== 1) return failure(request, 'account_disabled');
      // `other` accounts sign in only through the trusted terminal, never the console.
      if (permissionsOf(user.role).length === 0) return failure(request, 'no_permission');

      const token = newToken();
      const timeout = getSetting(ctx.db, 'session_timeout');
      const expiresAt = timeout > 0 ? now + timeout * 60_000 : null;
      insertSession(ctx.db, {
        token_hash: hashToken(token), user_id: user.id, created_at: now, seen_at: now, expires_at: expiresAt,
        ip: request.ip, user_agent: String(request.headers['user-agent'] ?? '').slice(0, 256),
      });
      clearFailures(ctx.db, request.ip, now);
      recordLogin(ctx.db, user.id, request.ip, now);
      signIn('panel.login_ok', 'info');
      const result: LoginResult = { token, expires_at: expiresAt };
      return ok(request, result);
    },
  );

  app.post('/logout', { config: { access: sessionAccess, audit: false }, schema: { body: emptyBodySchema } }, async (request) => {
    const tokenHash = request.user!.tokenHash;
    const account = request.user!.username;
    ctx.events.record({ kind: 'panel.logout', module: 'system', level: 'info', source: 'console', account, ip: request.ip, params: { account } });
    deleteSession(ctx.db, tokenHash);
    ctx.hub.closeWhere((c) => c.tokenHash === tokenHash);
    return ok(request);
  });

  app.post('/setpwd', { config: { access: sessionAccess }, schema: { body: setPasswordBodySchema } }, async (request) => {
    const me = request.user!;
    const body = request.body;
    // The form shows the signed-in name read-only; nobody changes another account's password here.
    if (body.username.toLowerCase() !== me.username.toLowerCase()) return failure(request, 'no_permission');
    const user = findUserByName(ctx.db, me.username);
    if (!user || !(await verifyPassword(user.password_hash, body.old))) return failure(request, 'password_old_wrong');
    if (body.new !== body.confirm) return failure(request, 'password_mismatch');
    if (body.new === body.old) return failure(request, 'password_same');
    setPasswordHash(ctx.db, user.id, await hashPassword(body.new));
    // Every session of the account ends: whoever else held one must sign in with the new password.
    deleteUserSessions(ctx.db, user.id);
    ctx.hub.closeWhere((c) => c.userId === user.id);
    return ok(request, undefined, 'password_changed');
  });
};
