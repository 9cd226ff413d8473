import {
  auditHistoryQuerySchema,
  auditResultsQuerySchema,
  emptyBodySchema,
  isMessageKey,
  noQuerySchema,
  reinforceApplyBodySchema,
  reinforceRevertBodySchema,
} from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { failure, ok } from '../http/reply.ts';

/** Who asked, for the agent. */
const accountOf = (request: FastifyRequest) => request.user?.username ?? '';

const pageOf = (query: { page?: number; size?: number }) => {
  const size = query.size ?? 20;
  return { offset: ((query.page ?? 1) - 1) * size, limit: size };
};

const refusedReply = (request: FastifyRequest, refused: string) => failure(request, isMessageKey(refused) ? refused : 'bad_request');

/**
 * The security audit's system and reinforcement tabs (`/audit`), permission key `audit`: reads are
 * `query`; starting a run, applying and reverting reinforcement change the server or its history
 * and are `edit`. The agent owns the runs; these are thin, schema-checked calls. Starting and
 * applying answer at once; the page polls `status` for progress.
 */
export const auditRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  const call = ctx.agent.call.bind(ctx.agent);

  app.get('/audit/status', { config: { access: perm('audit', 'query') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await call('audit.status', {})));
  app.get('/audit/results', { config: { access: perm('audit', 'query') }, schema: { querystring: auditResultsQuerySchema } }, async (request) => {
    const { run_id, level, outcome } = request.query;
    return ok(request, await call('audit.results', { ...(run_id ? { run_id } : {}), ...(level ? { level } : {}), ...(outcome ? { outcome } : {}), ...pageOf(request.query) }));
  });
  app.get('/audit/history', { config: { access: perm('audit', 'query') }, schema: { querystring: auditHistoryQuerySchema } }, async (request) =>
    ok(request, await call('audit.history', pageOf(request.query))));
  app.post('/audit/start', { config: { access: perm('audit', 'edit') }, schema: { querystring: noQuerySchema, body: emptyBodySchema } }, async (request) => {
    const started = await call('audit.start', { account: accountOf(request) });
    return started.refused ? refusedReply(request, started.refused) : ok(request, started, 'audit_started');
  });
  app.get('/audit/reinforce/items', { config: { access: perm('audit', 'query') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await call('audit.reinforce.items', {})));
  app.post('/audit/reinforce/apply', { config: { access: perm('audit', 'edit') }, schema: { querystring: noQuerySchema, body: reinforceApplyBodySchema } }, async (request) => {
    const started = await call('audit.reinforce.apply', { checkIds: request.body.checkIds, account: accountOf(request) });
    return started.refused ? refusedReply(request, started.refused) : ok(request, started, 'audit_reinforce_started');
  });
  app.post('/audit/reinforce/revert', { config: { access: perm('audit', 'edit') }, schema: { querystring: noQuerySchema, body: reinforceRevertBodySchema } }, async (request) => {
    const { checkIds } = request.body;
    const reverted = await call('audit.reinforce.revert', { ...(checkIds ? { checkIds } : {}), account: accountOf(request) });
    if (reverted.refused) return refusedReply(request, reverted.refused);
    return ok(request, reverted, 'audit_reverted', { count: reverted.results.filter((r) => r.status === 'reverted').length });
  });
};
