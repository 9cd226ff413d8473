import { emptyBodySchema, noQuerySchema, photoIdQuerySchema, photoListQuerySchema, type PhotoRecord } from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { failure, ok } from '../http/reply.ts';
import { periodRange } from '../services/log-periods.ts';

/** A list row carries this much of the headers and POST data; the detail has all of it. */
const previewChars = 300;

/** The snapshot as the raw request it was, for the download. */
function snapshotText(photo: PhotoRecord): string {
  const lines = [`${photo.method} ${photo.url}`, photo.headers.trimEnd(), '', photo.post_data];
  return lines.join('\r\n');
}

/** Request snapshots (photo log): list, counts, download one, clear all. */
export const photoRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/log/photo', { config: { access: perm('log_photo', 'query') }, schema: { querystring: photoListQuerySchema } }, async (request) => {
    const { period, ip, keyword, before, size } = request.query;
    const page = await ctx.agent.call('photos.query', {
      ...periodRange(period, ctx.now()), limit: size ?? 20, preview: previewChars,
      ...(ip ? { ip } : {}), ...(keyword ? { keyword } : {}), ...(before ? { before } : {}),
    });
    return ok(request, page);
  });

  app.get('/log/photo/base', { config: { access: perm('log_photo', 'query') }, schema: { querystring: noQuerySchema } }, async (request) => {
    const [stats, settings] = await Promise.all([ctx.agent.call('events.stats', {}), ctx.agent.call('logs.settings.get', {})]);
    return ok(request, { count: stats.photos, keep_days: settings.keep_days });
  });

  app.get('/log/photo/download', { config: { access: perm('log_photo', 'export') }, schema: { querystring: photoIdQuerySchema } }, async (request, reply) => {
    const photo = await ctx.agent.call('photos.get', { id: request.query.id });
    if (!photo) return failure(request, 'photo_not_found');
    return reply
      .type('text/plain; charset=utf-8')
      .header('content-disposition', `attachment; filename="rampart-snapshot-${photo.id}.txt"`)
      .send(snapshotText(photo));
  });

  // The spec's "clear": POST on the list path empties the snapshot store.
  app.post('/log/photo', { config: { access: perm('log_photo', 'delete') }, schema: { querystring: noQuerySchema, body: emptyBodySchema } }, async (request) => {
    const { removed } = await ctx.agent.call('photos.clear', {});
    ctx.events.record({
      kind: 'log.photos_cleared', module: 'system', level: 'info', source: 'console',
      account: request.user?.username ?? '', ip: request.ip, params: { account: request.user?.username ?? '', count: removed },
    });
    return ok(request, { removed }, 'photos_cleared', { count: removed });
  });
};
