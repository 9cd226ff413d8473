import { can, permissionsOf } from '@rampart/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConsoleContext } from '../context.ts';
import { findSession, deleteSession, touchSession } from '../db/sessions.ts';
import { findUserById } from '../db/users.ts';
import { liveTerminal } from '../services/trust-terminals.ts';
import { isRegistered } from '../db/registration.ts';
import { getSetting } from '../db/settings.ts';
import { hashToken, tokenPattern } from '../security/tokens.ts';
import { refuse } from './reply.ts';
import { requestLanguage } from './language.ts';
import type { Access, SessionUser } from './access.ts';

/** The token from `Authorization: Bearer …`, or for the websocket from its subprotocol. */
export function presentedToken(request: FastifyRequest): string | undefined {
  const auth = request.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice(7).trim();
  const protocol = request.headers['sec-websocket-protocol'];
  if (typeof protocol === 'string') return protocol.split(',')[0]?.trim();
  return undefined;
}

export function sessionUser(ctx: ConsoleContext, token: string | undefined): SessionUser | null {
  if (!token || !tokenPattern.test(token)) return null;
  const tokenHash = hashToken(token);
  const session = findSession(ctx.db, tokenHash);
  if (!session) return null;
  const now = ctx.now();
  if (session.expires_at !== null && session.expires_at <= now) {
    deleteSession(ctx.db, tokenHash);
    return null;
  }
  const user = findUserById(ctx.db, session.user_id);
  if (!user || user.status !== 1) return null;
  // Sliding expiry, written at most once a minute to keep reads cheap.
  if (now - session.seen_at > 60_000) {
    const timeout = getSetting(ctx.db, 'session_timeout');
    touchSession(ctx.db, tokenHash, now, timeout > 0 ? now + timeout * 60_000 : null);
  }
  return { id: user.id, username: user.username, role: user.role, permissions: permissionsOf(user.role), lang: user.lang, tokenHash };
}

/**
 * The one hook that enforces access. Every route under it must declare `config.access`;
 * registering one without it fails at start.
 *  onRequest: registration (503) → session (401) → fixed permission (403)
 *  preHandler: permissions that depend on the validated body (403)
 */
export interface DeclaredRoute {
  method: string;
  url: string;
  access: Access;
  beforeRegistration: boolean;
  /** The body's schema, for the tests that walk the table (every changed field has words in the event log). */
  body?: unknown;
}

export function installAccessHook(app: FastifyInstance, ctx: ConsoleContext, declared: DeclaredRoute[] = []): void {
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!access) throw new Error(`route ${String(route.method)} ${route.url} declares no access`);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') declared.push({ method, url: route.url, access, beforeRegistration: !!route.config?.beforeRegistration, body: route.schema?.body });
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    request.lang = requestLanguage(request);
    const { access, beforeRegistration } = request.routeOptions.config;
    if (!access) return refuse(reply, 404, 'not_found');
    if (!beforeRegistration && !isRegistered(ctx.db, ctx.now())) return refuse(reply, 503, 'not_registered');
    if (access.kind === 'public') return;
    if (access.kind === 'terminal') {
      const terminal = liveTerminal(ctx, presentedToken(request));
      if (!terminal) return refuse(reply, 401, 'terminal_token_invalid');
      request.terminal = terminal;
      return;
    }
    const user = sessionUser(ctx, presentedToken(request));
    if (!user) return refuse(reply, 401, 'unauthorized');
    request.user = user;
    request.lang = requestLanguage(request);
    if (user.permissions.length === 0) return refuse(reply, 403, 'no_permission');
    if (access.kind === 'permission' && !can(user.permissions, access.key, access.action)) {
      return refuse(reply, 403, 'no_permission');
    }
  });

  app.addHook('preHandler', async (request, reply) => {
    const access = request.routeOptions.config.access;
    if (access?.kind !== 'permissions' || !request.user) return;
    const permissions = request.user.permissions;
    if (!access.resolve(request).every(({ key, action }) => can(permissions, key, action))) {
      return refuse(reply, 403, 'no_permission');
    }
  });
}
