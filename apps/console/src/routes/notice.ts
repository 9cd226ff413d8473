import { noQuerySchema } from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { ok } from '../http/reply.ts';
import { unreadNotices } from '../db/notices.ts';

export const noticeRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/log/notice/unread', { config: { access: perm('log', 'get') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, { unread: unreadNotices(ctx.db) }));
};
