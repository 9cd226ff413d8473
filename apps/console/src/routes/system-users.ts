import {
  emptyBodySchema,
  noQuerySchema,
  onlineTerminalIdQuerySchema,
  panelAccountAddBodySchema,
  panelAccountEditBodySchema,
  panelAccountUidQuerySchema,
  type MessageKey,
  type OnlineTerminal,
  type PanelAccount,
  type PanelAccountList,
  type OnlineTerminalList,
} from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { transaction } from '../db/database.ts';
import { deleteSession, deleteUserSessions, findLiveSessionByPublicId, listOnlineSessions, onlineUserIds, sessionPublicId } from '../db/sessions.ts';
import { endTerminals, terminalsOf } from '../services/trust-terminals.ts';
import { countEnabledAdmins, createUser, deleteUser, findUserById, findUserByName, listUsers, updateUser, type UserChange, type UserRow } from '../db/users.ts';
import { perm } from '../http/access.ts';
import { failure, ok } from '../http/reply.ts';
import { hashPassword } from '../security/passwords.ts';
import { lockOutProblem } from '../services/account-rules.ts';
import { describeUserAgent } from '../services/user-agent.ts';

/** Thrown inside a transaction to refuse the change with a message (rolls it back). */
class Refusal extends Error {
  readonly key: MessageKey;
  readonly params: Record<string, string> | undefined;
  readonly field: string | undefined;
  constructor(key: MessageKey, params?: Record<string, string>, field?: string) {
    super(key);
    this.key = key;
    this.params = params;
    this.field = field;
  }
}

/** The duplicate-name refusal names the field, so the form marks the name. */
function refusal(request: FastifyRequest, error: Refusal) {
  const answer = failure(request, error.key, error.params);
  return error.field ? { ...answer, data: { field: error.field } } : answer;
}

const isUniqueViolation = (e: unknown) => e instanceof Error && /UNIQUE constraint failed/i.test(e.message);

/**
 * System settings, user tab: panel accounts (list, add, edit, delete) and the online terminals
 * (live sessions) with sign-out. Only roles holding `system` reach it (the administrator).
 */
export const systemUserRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  /** Ends every session of an account at once: its next request is a 401, its websocket closes. */
  const endSessions = (userId: number) => {
    deleteUserSessions(ctx.db, userId);
    ctx.hub.closeWhere((c) => c.userId === userId);
  };

  const view = (user: UserRow, online: ReadonlySet<number>, callerId: number): PanelAccount => ({
    id: user.id, username: user.username, role: user.role, status: user.status, remark: user.remark, created_at: user.created_at,
    last_login_at: user.last_login_at, last_login_ip: user.last_login_ip, online: online.has(user.id), self: user.id === callerId,
  });

  /** Refuses a name another account already has (names compare case-insensitively, as the column does). */
  const checkNameFree = (username: string, exceptId?: number) => {
    const other = findUserByName(ctx.db, username);
    if (other && other.id !== exceptId) throw new Refusal('user_name_taken', { name: other.username }, 'username');
  };

  app.get('/system/user', { config: { access: perm('system', 'get') }, schema: { querystring: noQuerySchema } }, async (request) => {
    const online = onlineUserIds(ctx.db, ctx.now(), ctx.hub.connectedTokens());
    const result: PanelAccountList = { list: listUsers(ctx.db).map((u) => view(u, online, request.user!.id)) };
    return ok(request, result);
  });

  app.post(
    '/system/user',
    { config: { access: perm('system', 'add') }, schema: { querystring: noQuerySchema, body: panelAccountAddBodySchema } },
    async (request) => {
      const body = request.body;
      try {
        checkNameFree(body.username);
        const passwordHash = await hashPassword(body.password);
        const id = transaction(ctx.db, () => {
          // Checked again: another request may have taken the name while the password was hashed.
          checkNameFree(body.username);
          return createUser(ctx.db, { username: body.username, passwordHash, role: body.role, status: body.status, remark: body.remark, now: ctx.now() });
        });
        return ok(request, view(findUserById(ctx.db, id)!, new Set(), request.user!.id), 'user_added');
      } catch (e) {
        if (e instanceof Refusal) return refusal(request, e);
        if (isUniqueViolation(e)) return refusal(request, new Refusal('user_name_taken', { name: body.username }, 'username'));
        throw e;
      }
    },
  );

  app.post(
    '/system/user_edit',
    { config: { access: perm('system', 'edit') }, schema: { querystring: panelAccountUidQuerySchema, body: panelAccountEditBodySchema } },
    async (request) => {
      const uid = request.query.uid;
      const body = request.body;
      const me = request.user!;
      const before = findUserById(ctx.db, uid);
      if (!before) return failure(request, 'user_not_found');

      /** Everything the edit is refused for, from the account as it is now. */
      const check = (current: UserRow) => {
        if (body.username !== undefined) checkNameFree(body.username, current.id);
        const outcome = { role: body.role ?? current.role, status: body.status ?? current.status };
        const problem = lockOutProblem(me.id, current, outcome, countEnabledAdmins(ctx.db));
        if (problem) throw new Refusal(problem);
      };
      try {
        check(before);
        // Blank keeps the stored password.
        const passwordHash = body.password ? await hashPassword(body.password) : undefined;
        const terminals = terminalsOf(ctx, uid);
        const ended = transaction(ctx.db, () => {
          // Read and checked again after the (slow) hashing, inside the write.
          const current = findUserById(ctx.db, uid);
          if (!current) throw new Refusal('user_not_found');
          check(current);
          const change: UserChange = { username: body.username, role: body.role, status: body.status, remark: body.remark, passwordHash };
          updateUser(ctx.db, uid, change);
          // A new password, another role or a disabled account: whoever holds a session of it signs in
          // again — the caller too when it changes its own password here (as POST /setpwd does).
          return passwordHash !== undefined || (body.role !== undefined && body.role !== current.role) || (body.status === 0 && current.status === 1);
        });
        if (ended) {
          endSessions(uid);
          await endTerminals(ctx, terminals, me.username);
        }
        const online = onlineUserIds(ctx.db, ctx.now(), ctx.hub.connectedTokens());
        return ok(request, view(findUserById(ctx.db, uid)!, online, me.id), 'saved');
      } catch (e) {
        if (e instanceof Refusal) return refusal(request, e);
        if (isUniqueViolation(e)) return refusal(request, new Refusal('user_name_taken', { name: body.username ?? '' }, 'username'));
        throw e;
      }
    },
  );

  app.post(
    '/system/user_delete',
    { config: { access: perm('system', 'delete') }, schema: { querystring: panelAccountUidQuerySchema, body: emptyBodySchema } },
    async (request) => {
      const uid = request.query.uid;
      // Read before the account goes: its terminal rows go with it (ON DELETE CASCADE), its held addresses not.
      const terminals = terminalsOf(ctx, uid);
      try {
        const removed = transaction(ctx.db, () => {
          const target = findUserById(ctx.db, uid);
          if (!target) throw new Refusal('user_not_found');
          const problem = lockOutProblem(request.user!.id, target, 'deleted', countEnabledAdmins(ctx.db));
          if (problem) throw new Refusal(problem);
          deleteUser(ctx.db, uid);
          return target;
        });
        endSessions(removed.id);
        await endTerminals(ctx, terminals, request.user!.username);
        return ok(request, undefined, 'user_deleted');
      } catch (e) {
        if (e instanceof Refusal) return refusal(request, e);
        throw e;
      }
    },
  );

  app.get('/system/user/online/list', { config: { access: perm('system', 'get') }, schema: { querystring: noQuerySchema } }, async (request) => {
    const now = ctx.now();
    // Online: a websocket open, or a request within the last minutes (a closed browser leaves the list).
    const list = listOnlineSessions(ctx.db, now, ctx.hub.connectedTokens()).map((s): OnlineTerminal => ({
      id: sessionPublicId(s.token_hash), user_id: s.user_id, username: s.username, role: s.role, ip: s.ip,
      terminal: describeUserAgent(s.user_agent), user_agent: s.user_agent, login_at: s.created_at, expires_at: s.expires_at,
      elapsed_ms: Math.max(0, now - s.created_at), current: s.token_hash === request.user!.tokenHash,
    }));
    const result: OnlineTerminalList = { list };
    return ok(request, result);
  });

  // Choice: the spec names no sign-out call; this one takes the session's public id. It needs
  // system/delete (it deletes a session). One's own current session may be signed out too (the page
  // asks first); the answer still arrives, the next call is a 401.
  app.post(
    '/system/user/online/logout',
    { config: { access: perm('system', 'delete') }, schema: { querystring: onlineTerminalIdQuerySchema, body: emptyBodySchema } },
    async (request) => {
      const session = findLiveSessionByPublicId(ctx.db, request.query.id, ctx.now());
      if (!session) return failure(request, 'user_session_not_found');
      deleteSession(ctx.db, session.token_hash);
      ctx.hub.closeWhere((c) => c.tokenHash === session.token_hash);
      return ok(request, undefined, 'user_session_ended');
    },
  );
};
