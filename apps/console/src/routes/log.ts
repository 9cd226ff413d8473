import { createReadStream } from 'node:fs';
import {
  archiveQuerySchema, emptyBodySchema, eventLevels, eventModules, kindsMatching, logDownloadQuerySchema, downloadJobQuerySchema, panelActionsMatching,
  logPeriods, logSystemQuerySchema, noQuerySchema, renderEvent, type EventQuery, type Language, type EventRecord, type LogRow,
} from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { failure, ok } from '../http/reply.ts';
import { periodRange } from '../services/log-periods.ts';
import type { DownloadFilters } from '../services/download-jobs.ts';

type Filters = Pick<z.output<typeof logSystemQuerySchema>, 'period' | 'module' | 'level' | 'ip' | 'keyword'>;

/** The page's filters as an event query (paging aside). The keyword also matches event words in the reader's language. */
export function eventFilters(filters: Filters, lang: Language, now: number): DownloadFilters {
  const query: DownloadFilters = { ...periodRange(filters.period, now) };
  if (filters.module) query.module = filters.module;
  if (filters.level) query.level = filters.level;
  if (filters.ip) query.ip = filters.ip;
  if (filters.keyword) query.keyword = { text: filters.keyword, kinds: kindsMatching(filters.keyword, lang), params: panelActionsMatching(filters.keyword, lang) };
  return query;
}

function logRow(record: EventRecord, lang: Language): LogRow {
  const { content, solution } = renderEvent(record.kind, record.params, lang);
  const { params: _params, kind: _kind, ...rest } = record;
  // The store counts the copies folded into a row; the page shows how many times it happened.
  return { ...rest, repeats: record.repeats + 1, content, solution };
}

/** The event log page: list, filter options, packed downloads. */
export const logRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/log/system', { config: { access: perm('log', 'query') }, schema: { querystring: logSystemQuerySchema } }, async (request) => {
    const { before, size, t: _t, ...filters } = request.query;
    const query: EventQuery = { ...eventFilters(filters, request.lang, ctx.now()), limit: size ?? 20, ...(before ? { before } : {}) };
    const page = await ctx.agent.call('events.query', query);
    return ok(request, { list: page.list.map((r) => logRow(r, request.lang)), more: page.more });
  });

  app.get('/log/system/base', { config: { access: perm('log', 'query') }, schema: { querystring: noQuerySchema } }, async (request) => {
    const [settings, stats] = await Promise.all([ctx.agent.call('logs.settings.get', {}), ctx.agent.call('events.stats', {})]);
    return ok(request, {
      modules: [...eventModules], levels: [...eventLevels], periods: [...logPeriods],
      mode: settings.mode, keep_days: settings.keep_days, events: stats.events, bytes: stats.bytes,
    });
  });

  app.get('/log/system/download', { config: { access: perm('log', 'export') }, schema: { querystring: logDownloadQuerySchema } }, async (request) => {
    const q = request.query;
    if ('job' in q) {
      const job = ctx.downloads.status(q.job);
      return job ? ok(request, job) : failure(request, 'download_not_found');
    }
    const { t: _t, ...filters } = q;
    const job = ctx.downloads.start(eventFilters(filters, request.lang, ctx.now()), request.lang);
    return job ? ok(request, job) : failure(request, 'execution_in_progress');
  });

  app.post(
    '/log/system/download/cancel',
    { config: { access: perm('log', 'export') }, schema: { querystring: downloadJobQuerySchema, body: emptyBodySchema } },
    async (request) => (ctx.downloads.cancel(request.query.job) ? ok(request, undefined, 'download_cancelled') : failure(request, 'download_not_found')),
  );

  app.get('/log/archive', { config: { access: perm('log', 'export') }, schema: { querystring: archiveQuerySchema } }, async (request, reply) => {
    const path = await ctx.downloads.readyFile(request.query.file);
    if (!path) return failure(request, 'download_not_found');
    return reply
      .type('application/gzip')
      .header('content-disposition', `attachment; filename="${request.query.file}"`)
      .send(createReadStream(path));
  });
};
