import { accountRootLoginBodySchema, accountSettingsBodySchema, accountUnlockBodySchema, emptyBodySchema, isMessageKey, noQuerySchema, type AccountChange, type MessageKey } from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { failure, ok } from '../http/reply.ts';

/** Who made the change, for the agent's event log. */
const accountOf = (request: FastifyRequest) => request.user?.username ?? '';

/**
 * User protection (`/account`): the account-file lock and its timed unlock, the privileged accounts
 * and direct root SSH login. Permission key `account`: reading is `query`; settings and root login
 * `edit`; an unlock switches protection off for a while (`disable`), relocking switches it on (`enable`).
 */
export const accountRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  const call = ctx.agent.call.bind(ctx.agent);

  function changeReply(request: FastifyRequest, change: AccountChange, done: MessageKey, params: Record<string, string | number> = {}) {
    if (change.refused) return failure(request, isMessageKey(change.refused) ? change.refused : 'bad_request', { reason: change.reason ?? '' });
    return ok(request, change, done, params);
  }

  app.get('/account/status', { config: { access: perm('account', 'query') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await call('account.status', {})));
  app.get('/account/privileged', { config: { access: perm('account', 'query') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await call('account.privileged', {})));
  app.post('/account/settings', { config: { access: perm('account', 'edit') }, schema: { querystring: noQuerySchema, body: accountSettingsBodySchema } }, async (request) =>
    changeReply(request, await call('account.settings.set', { settings: request.body.settings, account: accountOf(request) }), 'account_settings_saved'));
  app.post('/account/unlock', { config: { access: perm('account', 'disable') }, schema: { querystring: noQuerySchema, body: accountUnlockBodySchema } }, async (request) =>
    changeReply(request, await call('account.unlock', { minutes: request.body.minutes, account: accountOf(request) }), 'account_unlocked', { minutes: request.body.minutes }));
  app.post('/account/relock', { config: { access: perm('account', 'enable') }, schema: { querystring: noQuerySchema, body: emptyBodySchema } }, async (request) =>
    changeReply(request, await call('account.relock', { account: accountOf(request) }), 'account_relocked'));
  app.post('/account/root_login', { config: { access: perm('account', 'edit') }, schema: { querystring: noQuerySchema, body: accountRootLoginBodySchema } }, async (request) => {
    const { disable } = request.body;
    return changeReply(request, await call('account.root_login.set', { disable, account: accountOf(request) }), disable ? 'account_root_login_disabled' : 'account_root_login_restored');
  });
};
