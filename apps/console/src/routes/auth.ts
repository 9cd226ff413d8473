import {
  noQuerySchema, emptyBodySchema, loginBodySchema, setPasswordBodySchema, permissionsOf, productName, sendCodeBodySchema, totpObjectId,
  translate, verifyBodySchema, type LoginChallenge, type LoginConfig, type LoginResult, type SendCodeResult, type SignInClient,
} from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { publicAccess, sessionAccess } from '../http/access.ts';
import { failure, ok } from '../http/reply.ts';
import { findUserById, findUserByName, recordLogin, setPasswordHash, type UserRow } from '../db/users.ts';
import { deleteSession, deleteUserSessions, insertSession } from '../db/sessions.ts';
import { addFailure, clearFailures, failuresToday } from '../db/login-failures.ts';
import { getSetting } from '../db/settings.ts';
import { isRegistered } from '../db/registration.ts';
import { decoyPasswordHash, hashPassword, verifyPassword } from '../security/passwords.ts';
import { hashToken, newToken } from '../security/tokens.ts';
import { afterSignIn } from '../services/after-sign-in.ts';
import { signInTerminal } from '../services/terminal-sign-in.ts';
import { verificationChannels } from '../services/verification-channels.ts';
import { isLoopback, needsVerification } from '../sign-in/check-policy.ts';
import { codeLifeMs, maxSends, maxTries, PendingTickets, resendAfterMs, type PendingSignIn } from '../sign-in/tickets.ts';
import { findTotp, useTotpStep } from '../sign-in/totp-store.ts';
import { matchTotp } from '../sign-in/totp.ts';
import { totpRoutes } from '../sign-in/totp-routes.ts';
import { markVerified } from '../sign-in/verified-today.ts';

/** Sign-in attempts per IP per minute, on top of the per-day lock-out. */
const signInRateLimit = { max: 20, timeWindow: '1 minute' };

/** `other` accounts sign in only through the trust terminal, never the console; every account may use the terminal. */
function mayUse(user: UserRow, client: SignInClient): boolean {
  return client === 'terminal' || permissionsOf(user.role).length > 0;
}

type SignInEvent = 'panel.login_ok' | 'panel.login_failed' | 'panel.login_locked' | 'panel.login_check_skipped';

export const authRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  const tickets = new PendingTickets();

  const record = (request: FastifyRequest, account: string, kind: SignInEvent, level: 'info' | 'warning' | 'critical') =>
    ctx.events.record({ kind, module: 'system', level, source: 'console', account, ip: request.ip, params: { account, ip: request.ip } });

  /** The per-IP daily lock-out (login error count; 0 = no limit). */
  const lockedOut = (ip: string, now: number) => {
    const limit = getSetting(ctx.db, 'login_error_count');
    return limit > 0 && failuresToday(ctx.db, ip, now) >= limit;
  };

  /** A password or a code was wrong: counts toward the IP's lock-out; the answer says what is left. */
  const countFailure = (request: FastifyRequest, account: string, now: number): { locked: boolean; left: number | null } => {
    const limit = getSetting(ctx.db, 'login_error_count');
    const count = addFailure(ctx.db, request.ip, now);
    record(request, account, 'panel.login_failed', 'warning');
    if (limit === 0) return { locked: false, left: null };
    return { locked: count >= limit, left: limit - count };
  };

  /** Password (and verification, when asked) done: a session, and whatever follows a sign-in. */
  const completeSignIn = async (request: FastifyRequest, user: UserRow, now: number, client: SignInClient): Promise<LoginResult> => {
    if (client === 'terminal') {
      clearFailures(ctx.db, request.ip, now);
      return signInTerminal(ctx, request, user, now);
    }
    const token = newToken();
    const timeout = getSetting(ctx.db, 'session_timeout');
    const expiresAt = timeout > 0 ? now + timeout * 60_000 : null;
    insertSession(ctx.db, {
      token_hash: hashToken(token), user_id: user.id, created_at: now, seen_at: now, expires_at: expiresAt,
      ip: request.ip, user_agent: String(request.headers['user-agent'] ?? '').slice(0, 256),
    });
    clearFailures(ctx.db, request.ip, now);
    recordLogin(ctx.db, user.id, request.ip, now);
    record(request, user.username, 'panel.login_ok', 'info');
    try {
      await afterSignIn(ctx, { user, ip: request.ip, now });
    } catch (error) {
      request.log.warn({ err: error }, 'after-sign-in hook failed');
    }
    return { token, expires_at: expiresAt };
  };

  /** The account a ticket stands for, if it may still sign in (not deleted, disabled or demoted meanwhile). */
  const accountOf = (pending: PendingSignIn) => {
    const user = findUserById(ctx.db, pending.userId);
    return user && user.status === 1 && mayUse(user, pending.client) ? user : undefined;
  };

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
      const client = request.body.client ?? 'console';
      const now = ctx.now();
      if (lockedOut(request.ip, now)) {
        record(request, username, 'panel.login_locked', 'critical');
        return failure(request, 'login_locked');
      }

      const user = findUserByName(ctx.db, username);
      const passwordOk = user
        ? await verifyPassword(user.password_hash, password)
        : (await verifyPassword(await decoyPasswordHash(), password), false);
      if (!user || !passwordOk) {
        const { locked, left } = countFailure(request, username, now);
        if (left === null) return failure(request, 'login_failed');
        return locked ? failure(request, 'login_locked') : failure(request, 'login_failed_left', { left });
      }
      if (user.status !== 1) return failure(request, 'account_disabled');
      if (!mayUse(user, client)) return failure(request, 'login_terminal_only');

      if (needsVerification(ctx.db, user.id, request.ip, now)) {
        const objects = verificationChannels(ctx).list();
        const totp = findTotp(ctx.db, user.id)?.active === true;
        if (objects.length > 0 || totp) {
          const { ticket, expiresIn } = tickets.issue(user.id, request.ip, now, client);
          const challenge: LoginChallenge = { verify: true, ticket, expires_in: expiresIn, objects, totp };
          return ok(request, challenge);
        }
        // No way to reach the user. Refusing everyone would lock the administrator out by one
        // setting; letting everyone in would make the setting a lie. So: a sign-in from this machine
        // itself (an SSH session, a tunnel) goes through with a warning event, anywhere else is
        // refused with "Notification method not set". `npx rampart login-check off` on the server also helps.
        if (!isLoopback(request.ip)) {
          record(request, user.username, 'panel.login_failed', 'warning');
          return failure(request, 'vc_no_method');
        }
        record(request, user.username, 'panel.login_check_skipped', 'warning');
      }
      return ok(request, await completeSignIn(request, user, now, client));
    },
  );

  app.post(
    '/login/code',
    { config: { access: publicAccess, rateLimit: signInRateLimit }, schema: { body: sendCodeBodySchema } },
    async (request) => {
      const { ticket, object } = request.body;
      const now = ctx.now();
      const pending = tickets.find(ticket, request.ip, now);
      const user = pending && accountOf(pending);
      if (!pending || !user) return failure(request, 'vc_ticket_invalid');
      const channels = verificationChannels(ctx);
      const target = channels.list().find((o) => o.id === object);
      if (!target) return failure(request, 'vc_object_unknown');
      // The countdown on the button is a courtesy; this is the rule.
      const wait = tickets.waitSeconds(pending, now);
      if (wait > 0) return failure(request, 'vc_code_wait', { seconds: wait });
      if (pending.sends >= maxSends) {
        tickets.kill(ticket);
        return failure(request, 'vc_too_many_sends');
      }
      pending.sends++;
      const code = tickets.newCode(pending, target.id, now);
      const minutes = codeLifeMs / 60_000;
      const params = { product: productName, code, minutes, account: user.username, ip: request.ip };
      try {
        await channels.send(target.id, {
          subject: translate(request.lang, 'vc_code_subject', params),
          body: translate(request.lang, 'vc_code_body', params),
        });
      } catch (error) {
        request.log.warn({ err: error, channel: target.channel }, 'sign-in code not delivered');
        // Undelivered: the code is void and another try may go out at once.
        pending.code = null;
        pending.lastSentAt = null;
        return failure(request, 'vc_send_failed');
      }
      const result: SendCodeResult = { resend_in: resendAfterMs / 1000, expires_in: codeLifeMs / 1000 };
      return ok(request, result);
    },
  );

  app.post(
    '/login/verify',
    { config: { access: publicAccess, rateLimit: signInRateLimit }, schema: { body: verifyBodySchema } },
    async (request) => {
      const { ticket, object, code } = request.body;
      const now = ctx.now();
      const pending = tickets.find(ticket, request.ip, now);
      const user = pending && accountOf(pending);
      if (!pending || !user) return failure(request, 'vc_ticket_invalid');
      if (lockedOut(request.ip, now)) {
        tickets.kill(ticket);
        record(request, user.username, 'panel.login_locked', 'critical');
        return failure(request, 'login_locked');
      }

      let right = false;
      if (object === totpObjectId) {
        const enrolment = findTotp(ctx.db, user.id);
        if (!enrolment?.active) return failure(request, 'vc_totp_not_enabled');
        const step = matchTotp(enrolment.secret, code, now, enrolment.lastStep);
        // The conditional update makes a replay racing this request lose.
        right = step !== null && useTotpStep(ctx.db, user.id, step);
      } else {
        if (!pending.code || pending.code.objectId !== object) return failure(request, 'vc_code_not_sent');
        if (pending.code.expiresAt <= now) return failure(request, 'vc_code_expired');
        right = tickets.codeMatches(pending, object, code);
      }

      if (!right) {
        pending.tries++;
        const { locked, left } = countFailure(request, user.username, now);
        if (locked) {
          tickets.kill(ticket);
          return failure(request, 'login_locked');
        }
        if (pending.tries >= maxTries) {
          tickets.kill(ticket);
          return failure(request, 'vc_too_many_tries');
        }
        return failure(request, 'vc_code_wrong', { left: Math.min(maxTries - pending.tries, left ?? maxTries) });
      }

      tickets.kill(ticket);
      // Marked in every mode: loose reads it, strict ignores it, and switching strict → loose
      // later the same day does not ask again from an IP that has just proved itself.
      markVerified(ctx.db, user.id, request.ip, now);
      return ok(request, await completeSignIn(request, user, now, pending.client));
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

  await app.register(totpRoutes(ctx));
};
