import {
  cmsTemplateRules,
  cmsTemplateViews,
  isMessageKey,
  namingRuleAddBodySchema,
  namingRuleEditBodySchema,
  noQuerySchema,
  tamperIdsBodySchema,
  tamperListQuerySchema,
  tamperRuleEditBodySchema,
  tamperRulesAddBodySchema,
  tamperSetEnabledBodySchema,
  tamperTemplatesQuerySchema,
  type MessageKey,
  type TamperChange,
} from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm, type Access } from '../http/access.ts';
import { failure, ok, warning } from '../http/reply.ts';

/** Who made the change, for the agent's event log. */
const accountOf = (request: FastifyRequest) => request.user?.username ?? '';

const pageOf = (query: { keyword?: string; page?: number; size?: number }) => {
  const size = query.size ?? 20;
  return { ...(query.keyword ? { keyword: query.keyword } : {}), offset: ((query.page ?? 1) - 1) * size, limit: size };
};

/** Switching on needs `enable`, switching off needs `disable`: decided from the validated body. */
const switchAccess: Access = {
  kind: 'permissions',
  resolve: (request) => [{ key: 'tamper', action: (request.body as { enabled: boolean }).enabled ? 'enable' : 'disable' }],
};

/** Tamper protection (`/tamper` tabs): file rules (index), naming rules (name), the guard's status, CMS templates. */
export const tamperRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  const call = ctx.agent.call.bind(ctx.agent);

  /**
   * A change's answer: refused (nothing changed), saved with a warning, or saved. A degraded guard's
   * warning names the operations the running backend cannot deny.
   */
  async function changeReply(request: FastifyRequest, change: TamperChange, done: MessageKey) {
    if (change.refused) return failure(request, isMessageKey(change.refused) ? change.refused : 'bad_request');
    const known = change.warnings.find(isMessageKey);
    if (known === 'tamper_guard_degraded') {
      const { missing_ops } = await call('tamper.status', {});
      return warning(request, known, change, { ops: missing_ops.join(' ') });
    }
    if (known) return warning(request, known, change, { count: change.changed });
    return ok(request, change, done, { count: change.changed });
  }

  app.get('/tamper/status', { config: { access: perm('tamper', 'query') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await call('tamper.status', {})));

  app.get('/tamper/templates', { config: { access: perm('tamper', 'query') }, schema: { querystring: tamperTemplatesQuerySchema } }, async (request) => {
    const { id, root } = request.query;
    const rules = id && root ? cmsTemplateRules(id, root, request.lang) : [];
    return ok(request, { list: cmsTemplateViews(request.lang), rules });
  });

  /* File rules. */
  app.get('/tamper/rules', { config: { access: perm('tamper', 'query') }, schema: { querystring: tamperListQuerySchema } }, async (request) =>
    ok(request, await call('tamper.rules.list', pageOf(request.query))));
  app.post('/tamper/rules/add', { config: { access: perm('tamper', 'add') }, schema: { querystring: noQuerySchema, body: tamperRulesAddBodySchema } }, async (request) => {
    const { rules, confirmations } = request.body;
    return changeReply(request, await call('tamper.rules.add', { rules, confirmations, account: accountOf(request) }), 'tamper_rules_saved');
  });
  app.post('/tamper/rules/edit', { config: { access: perm('tamper', 'edit') }, schema: { querystring: noQuerySchema, body: tamperRuleEditBodySchema } }, async (request) => {
    const { rule, confirmations } = request.body;
    return changeReply(request, await call('tamper.rules.edit', { rule, confirmations, account: accountOf(request) }), 'saved');
  });
  app.post('/tamper/rules/enable', { config: { access: switchAccess }, schema: { querystring: noQuerySchema, body: tamperSetEnabledBodySchema } }, async (request) => {
    const { ids, enabled } = request.body;
    return changeReply(request, await call('tamper.rules.set_enabled', { ids, enabled, account: accountOf(request) }), 'saved');
  });
  app.post('/tamper/rules/delete', { config: { access: perm('tamper', 'delete') }, schema: { querystring: noQuerySchema, body: tamperIdsBodySchema } }, async (request) =>
    changeReply(request, await call('tamper.rules.delete', { ids: request.body.ids, account: accountOf(request) }), 'tamper_rules_deleted'));

  /* Naming rules. */
  app.get('/tamper/names', { config: { access: perm('tamper', 'query') }, schema: { querystring: tamperListQuerySchema } }, async (request) =>
    ok(request, await call('tamper.names.list', pageOf(request.query))));
  app.post('/tamper/names/add', { config: { access: perm('tamper', 'add') }, schema: { querystring: noQuerySchema, body: namingRuleAddBodySchema } }, async (request) => {
    const { rule, confirmations } = request.body;
    return changeReply(request, await call('tamper.names.add', { rule, confirmations, account: accountOf(request) }), 'saved');
  });
  app.post('/tamper/names/edit', { config: { access: perm('tamper', 'edit') }, schema: { querystring: noQuerySchema, body: namingRuleEditBodySchema } }, async (request) => {
    const { rule, confirmations } = request.body;
    return changeReply(request, await call('tamper.names.edit', { rule, confirmations, account: accountOf(request) }), 'saved');
  });
  app.post('/tamper/names/enable', { config: { access: switchAccess }, schema: { querystring: noQuerySchema, body: tamperSetEnabledBodySchema } }, async (request) => {
    const { ids, enabled } = request.body;
    return changeReply(request, await call('tamper.names.set_enabled', { ids, enabled, account: accountOf(request) }), 'saved');
  });
  app.post('/tamper/names/delete', { config: { access: perm('tamper', 'delete') }, schema: { querystring: noQuerySchema, body: tamperIdsBodySchema } }, async (request) =>
    changeReply(request, await call('tamper.names.delete', { ids: request.body.ids, account: accountOf(request) }), 'tamper_rules_deleted'));
};
