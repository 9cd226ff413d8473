import { auditInventoryQuerySchema, auditProcessDetailQuerySchema } from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { failure, ok } from '../http/reply.ts';

const listQuery = (query: { findings_only?: '0' | '1'; keyword?: string; page?: number; size?: number }) => {
  const size = query.size ?? 20;
  return { offset: ((query.page ?? 1) - 1) * size, limit: size, findings_only: query.findings_only === '1', ...(query.keyword ? { keyword: query.keyword } : {}) };
};

/**
 * The security audit's user (`account`) and process (`process`) tabs, permission key `audit`, all
 * reads (`query`). The agent reads and judges on each call (it is root: shadow and every /proc);
 * these are thin, schema-checked doors.
 */
export const auditInventoryRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  const call = ctx.agent.call.bind(ctx.agent);

  app.get('/audit/account/list', { config: { access: perm('audit', 'query') }, schema: { querystring: auditInventoryQuerySchema } }, async (request) =>
    ok(request, await call('audit.users.list', listQuery(request.query))));
  app.get('/audit/process/list', { config: { access: perm('audit', 'query') }, schema: { querystring: auditInventoryQuerySchema } }, async (request) =>
    ok(request, await call('audit.processes.list', listQuery(request.query))));
  app.get('/audit/process/detail', { config: { access: perm('audit', 'query') }, schema: { querystring: auditProcessDetailQuerySchema } }, async (request) => {
    const found = await call('audit.processes.get', { pid: request.query.pid });
    return found ? ok(request, found) : failure(request, 'audit_process_gone');
  });
};
