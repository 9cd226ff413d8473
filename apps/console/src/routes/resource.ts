import { areaName, areaQuerySchema, isAreaCode, isChinaProvinceCode, searchAreas } from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { sessionAccess } from '../http/access.ts';
import { ok } from '../http/reply.ts';

/**
 * Shared look-ups for pickers. `/resource/area`: countries and Chinese provinces in the caller's
 * language — one by `id`, or up to 50 matching `keywords` (code or name; empty lists from the top).
 */
export const resourceRoutes = (_ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/resource/area', { config: { access: sessionAccess }, schema: { querystring: areaQuerySchema } }, async (request) => {
    const { id, keywords } = request.query;
    if (id !== undefined) {
      const code = id.toUpperCase();
      const list = isAreaCode(code) ? [{ code, kind: isChinaProvinceCode(code) ? 'province' : 'country', name: areaName(code, request.lang) }] : [];
      return ok(request, { list });
    }
    return ok(request, { list: searchAreas(keywords ?? '', request.lang, 50) });
  });
};
