import {
  noQuerySchema,
  websiteSiteIdsSchema,
  websiteSiteInputSchema,
  websiteSiteRunningSchema,
  websiteSiteStatusSchema,
  type WebsiteServerList,
  type WebsiteSiteInput,
} from '@rampart/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { ok, refuse } from '../http/reply.ts';
import { applyWebsiteChange, WebsiteRefusal } from '../website/apply.ts';
import type { WebsiteLink } from '../website/website-link.ts';
import { deleteSites, getSite, listSites, saveSite, setSitesColumn, siteView } from '../website/site-store.ts';

/*
 * Website protection, the server tab (spec 7: `/website/server`). Design:
 *
 * - The console keeps the website desired state — protected sites here, the settings groups in
 *   routes/website-settings.ts — in its panel database (migration 004_website.sql). The gateway is
 *   unprivileged and reads one configuration file; the console is that file's only writer.
 * - After each change the console builds the gateway configuration from the whole state, checks it
 *   with gatewayConfigSchema inside the change's transaction (a state the gateway would refuse is
 *   not saved: code 2 with the reason), writes `<data dir>/gateway/gateway.json` atomically (the
 *   path apps/cli/src/commands/start.ts gives the gateway; a console option so tests use a temp
 *   dir), then asks a running gateway to `reload` over its admin socket (`<data dir>/run/
 *   gateway.sock`). The gateway's refusal reason comes back as a warning (code 1): saved, the old
 *   configuration keeps serving. No gateway running: saved, it reads the file when it starts.
 * - TLS private keys are sealed with the console's secret box at rest and never returned (the view
 *   says `tls_key_set`); only the gateway's file holds them in clear, mode 0640, because the
 *   gateway must serve HTTPS with them.
 * - Module-wide settings: the spec's tabs carry no site, so every site uses the same groups.
 * - `is_any_open`: at least one site is on; the web offers "open all" (spec 4) when the module is
 *   switched on, sites exist and none is open, and does it with POST /website/server_status.
 * - The file also carries the engine's `policy` (website/gateway-config.ts): the settings groups,
 *   the agent's super whitelist and common areas, a cookie secret and the timed lists. The module
 *   switched off or protection paused writes every site status off (still proxying, nothing
 *   inspected). The routes that change those (module switch, protection, super whitelist, areas)
 *   push the policy at once (services/policy-signal.ts); a periodic check (website/policy-sync.ts)
 *   rewrites and reloads for what changes without a route; the gateway's own reports are drained every second
 *   (website/gateway-events.ts) into the event log, the photo log, the timed lists and notices.
 * - Discovery of local nginx / Apache sites (`nginx -T`, `apachectl -S`) reads configuration only
 *   root may read: an agent call (`website.discover`, apps/agent/src/website), offered, never applied
 *   by itself — the web fills the add form from a found site.
 */
/** nginx -T and apachectl -S each have 10 s in the agent; they run side by side. */
const discoveryTimeoutMs = 30_000;

export const websiteServerRoutes = (ctx: ConsoleContext, link: WebsiteLink): FastifyPluginAsyncZod => async (app) => {
  const { box } = link;
  const apply = <T extends object>(request: Parameters<typeof applyWebsiteChange>[1], change: () => T) => applyWebsiteChange(link, request, change);

  app.get('/website/server', { config: { access: perm('website', 'get') }, schema: { querystring: noQuerySchema } }, async (request) => {
    const list = listSites(ctx.db, box).map(siteView);
    const data: WebsiteServerList = { list, total: list.length, is_any_open: list.some((site) => site.status === 'on') };
    return ok(request, data);
  });

  /** TLS listeners need a key: the posted one, or the one stored for this site. */
  const keyMissing = (input: WebsiteSiteInput, reply: FastifyReply): boolean => {
    if (!input.listen.some((l) => l.tls) || (input.tls_key !== null && input.tls_key !== '')) return false;
    const stored = input.id === undefined ? undefined : getSite(ctx.db, box, input.id);
    if (input.tls_key === null && stored && stored.tls_key !== '') return false;
    refuse(reply, 400, 'wapi_key_required', { field: 'tls_key' });
    return true;
  };

  app.post('/website/server', { config: { access: perm('website', 'add') }, schema: { querystring: noQuerySchema, body: websiteSiteInputSchema } }, async (request, reply) => {
    const input = { ...request.body, id: undefined };
    if (keyMissing(input, reply)) return reply;
    return apply(request, () => ({ id: saveSite(ctx.db, box, input, ctx.now()) }));
  });

  app.post('/website/server/edit', { config: { access: perm('website', 'edit') }, schema: { querystring: noQuerySchema, body: websiteSiteInputSchema } }, async (request, reply) => {
    const input = request.body;
    if (input.id === undefined) return refuse(reply, 400, 'wapi_site_missing', { field: 'id' });
    if (keyMissing(input, reply)) return reply;
    return apply(request, () => {
      if (!getSite(ctx.db, box, input.id!)) throw new WebsiteRefusal('wapi_site_missing');
      return { id: saveSite(ctx.db, box, input, ctx.now()) };
    });
  });

  app.get('/website/server/discover', { config: { access: perm('website', 'get') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await ctx.agent.call('website.discover', {}, { timeoutMs: discoveryTimeoutMs })));

  // None of the ids there (another window deleted them): said, as status and running say it.
  app.post('/website/server_delete', { config: { access: perm('website', 'delete') }, schema: { querystring: noQuerySchema, body: websiteSiteIdsSchema } }, async (request) =>
    apply(request, () => {
      const deleted = deleteSites(ctx.db, request.body.ids);
      if (deleted === 0) throw new WebsiteRefusal('wapi_site_missing');
      return { deleted };
    }));

  app.post('/website/server_status', { config: { access: perm('website', 'edit') }, schema: { querystring: noQuerySchema, body: websiteSiteStatusSchema } }, async (request) =>
    apply(request, () => {
      const changed = setSitesColumn(ctx.db, request.body.ids, 'status', request.body.status, ctx.now());
      if (changed === 0) throw new WebsiteRefusal('wapi_site_missing');
      return { changed };
    }));

  app.post('/website/server_running', { config: { access: perm('website', 'edit') }, schema: { querystring: noQuerySchema, body: websiteSiteRunningSchema } }, async (request) =>
    apply(request, () => {
      const changed = setSitesColumn(ctx.db, request.body.ids, 'running', request.body.running ? 1 : 0, ctx.now());
      if (changed === 0) throw new WebsiteRefusal('wapi_site_missing');
      return { changed };
    }));
};
