import {
  isMessageKey,
  noQuerySchema,
  processIdsBodySchema,
  processListQuerySchema,
  processRuleAddBodySchema,
  processRuleEditBodySchema,
  processSetEnabledBodySchema,
  type MessageKey,
  type ProcessChange,
} from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm, type Access } from '../http/access.ts';
import { failure, ok } from '../http/reply.ts';

/** Who made the change, for the agent's event log. */
const accountOf = (request: FastifyRequest) => request.user?.username ?? '';

const pageOf = (query: { keyword?: string; page?: number; size?: number }) => {
  const size = query.size ?? 20;
  return { ...(query.keyword ? { keyword: query.keyword } : {}), offset: ((query.page ?? 1) - 1) * size, limit: size };
};

/** Switching on needs `enable`, switching off needs `disable`: decided from the validated body. */
const switchAccess: Access = {
  kind: 'permissions',
  resolve: (request) => [{ key: 'process', action: (request.body as { enabled: boolean }).enabled ? 'enable' : 'disable' }],
};

function changeReply(request: FastifyRequest, change: ProcessChange, done: MessageKey) {
  if (change.refused) return failure(request, isMessageKey(change.refused) ? change.refused : 'bad_request');
  return ok(request, change, done, { count: change.changed });
}

/** Process protection (`/process`): rules by executable, permission key `process` with tamper's actions. */
export const processRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  const call = ctx.agent.call.bind(ctx.agent);

  app.get('/process/status', { config: { access: perm('process', 'query') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await call('process.status', {})));
  app.get('/process/rules', { config: { access: perm('process', 'query') }, schema: { querystring: processListQuerySchema } }, async (request) =>
    ok(request, await call('process.rules.list', pageOf(request.query))));
  app.post('/process/rules/add', { config: { access: perm('process', 'add') }, schema: { querystring: noQuerySchema, body: processRuleAddBodySchema } }, async (request) =>
    changeReply(request, await call('process.rules.add', { rule: request.body.rule, account: accountOf(request) }), 'saved'));
  app.post('/process/rules/edit', { config: { access: perm('process', 'edit') }, schema: { querystring: noQuerySchema, body: processRuleEditBodySchema } }, async (request) =>
    changeReply(request, await call('process.rules.edit', { rule: request.body.rule, account: accountOf(request) }), 'saved'));
  app.post('/process/rules/enable', { config: { access: switchAccess }, schema: { querystring: noQuerySchema, body: processSetEnabledBodySchema } }, async (request) => {
    const { ids, enabled } = request.body;
    return changeReply(request, await call('process.rules.set_enabled', { ids, enabled, account: accountOf(request) }), 'saved');
  });
  app.post('/process/rules/delete', { config: { access: perm('process', 'delete') }, schema: { querystring: noQuerySchema, body: processIdsBodySchema } }, async (request) =>
    changeReply(request, await call('process.rules.delete', { ids: request.body.ids, account: accountOf(request) }), 'notices_deleted'));
};
