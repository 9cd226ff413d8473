import { areaName, areaQuerySchema, commonAreaIdOf, commonAreaRef, isAreaCode, isChinaProvinceCode, searchAreas } from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { sessionAccess } from '../http/access.ts';
import { ok } from '../http/reply.ts';

/**
 * Shared look-ups for pickers. `/resource/area`: countries and Chinese provinces in the caller's
 * language — one by `id`, or up to 50 matching `keywords` (code or name; empty lists from the top) —
 * and the common areas (`common:<id>`, matched by name, listed first; `kind=common` lists them all).
 */
export const resourceRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  /** Common areas (system settings) as picker entries: `common:<id>` and the name the administrator gave. */
  const commonAreas = async () => {
    try {
      const { list } = await ctx.agent.call('areas.list', { offset: 0, limit: 1000 });
      return list.map((area) => ({ code: commonAreaRef(area.id), kind: 'common' as const, name: area.name, members: area.members }));
    } catch {
      // The agent keeps them: while it is down, countries and provinces are still offered.
      return [];
    }
  };

  app.get('/resource/area', { config: { access: sessionAccess }, schema: { querystring: areaQuerySchema } }, async (request) => {
    const { id, kind, keywords } = request.query;
    if (kind === 'common') return ok(request, { list: await commonAreas() });
    if (id !== undefined && commonAreaIdOf(id) !== null) return ok(request, { list: (await commonAreas()).filter((area) => area.code === id) });
    if (id !== undefined) {
      const code = id.toUpperCase();
      const list = isAreaCode(code) ? [{ code, kind: isChinaProvinceCode(code) ? 'province' : 'country', name: areaName(code, request.lang) }] : [];
      return ok(request, { list });
    }
    const needle = (keywords ?? '').toLowerCase();
    const common = needle ? (await commonAreas()).filter((area) => area.name.toLowerCase().includes(needle)) : [];
    return ok(request, { list: [...common, ...searchAreas(keywords ?? '', request.lang, 50)].slice(0, 50) });
  });
};
