import {
  emptyBodySchema, noQuerySchema, noticeIdQuerySchema, noticeIdsQuerySchema, noticeListQuerySchema, renderNotice,
  type NoticeRecord, type Language,
} from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { failure, ok } from '../http/reply.ts';

function noticeRow(notice: NoticeRecord, lang: Language) {
  const { title, content } = renderNotice(notice.kind, notice.params, lang);
  return { id: notice.id, title, content, add_time: notice.add_time, readed: notice.readed };
}

/** Notices: list, read one, mark read, delete, unread count (the header badge). */
export const noticeRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/log/notice', { config: { access: perm('log', 'query') }, schema: { querystring: noticeListQuerySchema } }, async (request) => {
    const size = request.query.size ?? 20;
    const page = request.query.page ?? 1;
    const result = await ctx.agent.call('notices.list', { offset: (page - 1) * size, limit: size });
    const list = result.list.map((n) => {
      const { content: _content, ...row } = noticeRow(n, request.lang);
      return row;
    });
    // The spec's shape: count and list, where an empty page is null.
    return ok(request, { count: result.count, list: list.length ? list : null });
  });

  app.get('/log/notice/info', { config: { access: perm('log', 'get') }, schema: { querystring: noticeIdQuerySchema } }, async (request) => {
    const notice = await ctx.agent.call('notices.get', { id: request.query.id, mark_read: true });
    if (!notice) return failure(request, 'notice_not_found');
    void ctx.noticeFeed.refresh();
    return ok(request, noticeRow(notice, request.lang));
  });

  app.get('/log/notice/unread', { config: { access: perm('log', 'get') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await ctx.agent.call('notices.unread', {})));

  app.post(
    '/log/notice/readed',
    { config: { access: perm('log', 'edit') }, schema: { querystring: noticeIdsQuerySchema, body: emptyBodySchema } },
    async (request) => {
      const result = await ctx.agent.call('notices.read', { target: request.query.ids });
      void ctx.noticeFeed.refresh();
      return ok(request, result, 'notices_read');
    },
  );

  app.post(
    '/log/notice/delete',
    { config: { access: perm('log', 'delete') }, schema: { querystring: noticeIdsQuerySchema, body: emptyBodySchema } },
    async (request) => {
      const result = await ctx.agent.call('notices.delete', { target: request.query.ids });
      void ctx.noticeFeed.refresh();
      return ok(request, result, 'notices_deleted');
    },
  );
};
