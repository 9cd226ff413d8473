import { emptyBodySchema, isMessageKey, noQuerySchema, patchSelectionBodySchema, patchSettingsBodySchema } from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { failure, ok } from '../http/reply.ts';

const accountOf = (request: FastifyRequest) => request.user?.username ?? '';
const refusedReply = (request: FastifyRequest, refused: string) => failure(request, isMessageKey(refused) ? refused : 'bad_request');

/**
 * The audit's patch tab (`/audit/patch/...`), permission key `audit_patch` (the spec: the patch
 * tab has its own key): the list is `query`; checking, downloading, installing and the auto-update
 * settings change the server and are `edit`. The agent runs apt; check, download and install answer
 * once apt's lock is known free and go on in the background (the page polls `status`).
 */
export const auditPatchRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  const call = ctx.agent.call.bind(ctx.agent);
  const selection = (body: { names?: string[] | undefined }) => (body.names ? { names: body.names } : {});

  app.get('/audit/patch/status', { config: { access: perm('audit_patch', 'query') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await call('audit.patch.status', {})));
  app.post('/audit/patch/check', { config: { access: perm('audit_patch', 'edit') }, schema: { querystring: noQuerySchema, body: emptyBodySchema } }, async (request) => {
    const started = await call('audit.patch.check', { account: accountOf(request) });
    return started.refused ? refusedReply(request, started.refused) : ok(request, started, 'audit_patch_check_started');
  });
  app.post('/audit/patch/download', { config: { access: perm('audit_patch', 'edit') }, schema: { querystring: noQuerySchema, body: patchSelectionBodySchema } }, async (request) => {
    const started = await call('audit.patch.download', { ...selection(request.body), account: accountOf(request) });
    return started.refused ? refusedReply(request, started.refused) : ok(request, started, 'audit_patch_download_started');
  });
  app.post('/audit/patch/install', { config: { access: perm('audit_patch', 'edit') }, schema: { querystring: noQuerySchema, body: patchSelectionBodySchema } }, async (request) => {
    const started = await call('audit.patch.install', { ...selection(request.body), account: accountOf(request) });
    return started.refused ? refusedReply(request, started.refused) : ok(request, started, 'audit_patch_install_started');
  });
  app.post('/audit/patch/settings', { config: { access: perm('audit_patch', 'edit') }, schema: { querystring: noQuerySchema, body: patchSettingsBodySchema } }, async (request) =>
    ok(request, await call('audit.patch.settings', { settings: request.body, account: accountOf(request) }), 'audit_patch_settings_saved'));
};
