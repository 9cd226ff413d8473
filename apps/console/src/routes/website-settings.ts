import {
  emptyBodySchema,
  mergeProtectInput,
  noQuerySchema,
  protectView,
  websiteAttackHeadersSchema,
  websiteRequestContentSchema,
  websiteTabInputSchemas,
  type WebsiteSettings,
  type WebsiteTabViews,
} from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { ok } from '../http/reply.ts';
import { applyWebsiteChange } from '../website/apply.ts';
import { hashAuthorizationPassword } from '../website/authorization-hash.ts';
import type { WebsiteLink } from '../website/website-link.ts';
import { readWebsiteSettings, writeWebsiteGroup } from '../website/settings-store.ts';

/**
 * The website settings tabs (spec 7: base, request, protect, sql, attack, response, lists). GET
 * answers the tab's view (the authorization password's hash never leaves: `password_set`), POST
 * validates with the tab's schema (website.ts; a 400 on the field, nothing saved), stores the group
 * and regenerates the gateway's configuration (routes/website.ts explains the flow). Groups are
 * module-wide: the spec's calls name no site.
 */
export const websiteSettingsRoutes = (ctx: ConsoleContext, link: WebsiteLink): FastifyPluginAsyncZod => async (app) => {
  const read = () => readWebsiteSettings(ctx.db);
  const store = <G extends keyof WebsiteSettings>(request: Parameters<typeof applyWebsiteChange>[1], group: G, value: (stored: WebsiteSettings) => WebsiteSettings[G]) =>
    applyWebsiteChange(link, request, () => {
      writeWebsiteGroup(ctx.db, group, value(read()));
      return {};
    });

  const views: { [T in keyof WebsiteTabViews]: (settings: WebsiteSettings) => WebsiteTabViews[T] } = {
    base: (s) => s.base,
    request: (s) => s.request,
    protect: (s) => protectView(s.protect),
    sql: (s) => s.sql,
    attack: (s) => s.attack,
    response: (s) => s.response,
    lists: (s) => s.lists,
  };
  for (const tab of Object.keys(views) as (keyof WebsiteTabViews)[]) {
    app.get(`/website/${tab}`, { config: { access: perm('website', 'get') }, schema: { querystring: noQuerySchema } }, async (request) => ok(request, views[tab](read())));
  }

  const edit = { config: { access: perm('website', 'edit') } } as const;
  app.post('/website/base', { ...edit, schema: { querystring: noQuerySchema, body: websiteTabInputSchemas.base } }, async (request) => store(request, 'base', () => request.body));
  app.post('/website/request', { ...edit, schema: { querystring: noQuerySchema, body: websiteTabInputSchemas.request } }, async (request) => store(request, 'request', () => request.body));
  app.post('/website/request/content', { ...edit, schema: { querystring: noQuerySchema, body: websiteRequestContentSchema } }, async (request) =>
    store(request, 'request', (stored) => ({ ...stored.request, ...request.body })));
  app.post('/website/protect', { ...edit, schema: { querystring: noQuerySchema, body: websiteTabInputSchemas.protect } }, async (request) =>
    store(request, 'protect', (stored) => mergeProtectInput(request.body, stored.protect, hashAuthorizationPassword)));
  app.post('/website/sql', { ...edit, schema: { querystring: noQuerySchema, body: websiteTabInputSchemas.sql } }, async (request) => store(request, 'sql', () => request.body));
  app.post('/website/attack', { ...edit, schema: { querystring: noQuerySchema, body: websiteTabInputSchemas.attack } }, async (request) => store(request, 'attack', () => request.body));
  app.post('/website/response', { ...edit, schema: { querystring: noQuerySchema, body: websiteTabInputSchemas.response } }, async (request) => store(request, 'response', () => request.body));
  app.post('/website/lists', { ...edit, schema: { querystring: noQuerySchema, body: websiteTabInputSchemas.lists } }, async (request) => store(request, 'lists', () => request.body));

  /** The keyword libraries of the injection tab, as stored (the spec's call; the tab's GET carries them too). */
  app.post('/website/sql_getkeywords', { config: { access: perm('website', 'get') }, schema: { querystring: noQuerySchema, body: emptyBodySchema } }, async (request) =>
    ok(request, read().sql.keywords));

  app.get('/website/attack_header', { config: { access: perm('website', 'get') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, { headers: read().attack.headers }));
  app.post('/website/attack_header', { ...edit, schema: { querystring: noQuerySchema, body: websiteAttackHeadersSchema } }, async (request) =>
    store(request, 'attack', (stored) => ({ ...stored.attack, headers: [...new Set(request.body.headers)] })));
};
