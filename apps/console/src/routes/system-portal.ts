import { noQuerySchema, portalSaveSchema, type PortalSaveResult } from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { failure, ok, refuse, warning } from '../http/reply.ts';
import { entryCookieHeader } from '../portal/gate.ts';
import { portalRuntime } from '../portal/runtime.ts';
import { savePortal } from '../portal/save.ts';
import { portalView } from '../portal/view.ts';

/** System settings, portal tab: the panel's port, entry, domain, HTTPS, authorized IPs and login policy. */
export const systemPortalRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  const runtime = portalRuntime(ctx);

  app.get('/system/portal', { config: { access: perm('system', 'get') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, portalView(ctx, runtime, request)));

  app.post(
    '/system/portal',
    // A certificate chain and its key fit in 64 KiB each.
    { config: { access: perm('system', 'edit') }, schema: { querystring: noQuerySchema, body: portalSaveSchema }, bodyLimit: 256 * 1024 },
    async (request, reply) => {
      const outcome = await savePortal(ctx, runtime, request, request.body);
      if (outcome.kind === 'refused') {
        // Certificate, key and port problems belong to a field of the form, like the schema's own refusals.
        if (outcome.field && outcome.msg !== 'portal_port_in_use') return refuse(reply, 400, outcome.msg, { field: outcome.field }, outcome.params);
        return failure(request, outcome.msg, outcome.params);
      }
      if (outcome.kind === 'confirm') {
        const data: PortalSaveResult = { saved: false, warnings: outcome.warnings, restart: null, view: null };
        return warning(request, 'portal_confirm_needed', data);
      }
      // This browser passes the new entry at once (cookies ignore ports, so the new port too).
      if (outcome.entryChanged && runtime.gate.entry) reply.header('set-cookie', entryCookieHeader(runtime, request.protocol === 'https'));
      const data: PortalSaveResult = { saved: true, warnings: [], restart: outcome.restart, view: portalView(ctx, runtime, request) };
      if (!outcome.restart) return ok(request, data, 'portal_saved');
      // The answer goes out on the old listener first; then the listener moves.
      reply.raw.once('close', () => setImmediate(() => void runtime.apply()));
      return ok(request, data, 'portal_saved_restart', { address: outcome.restart.target });
    },
  );
};
