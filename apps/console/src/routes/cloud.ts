import {
  Code,
  cloudAddUrlBodySchema,
  cloudBundleMaxChars,
  cloudFeedEditBodySchema,
  cloudFeedIdBodySchema,
  cloudIdsBodySchema,
  cloudImportBodySchema,
  cloudKeyAddBodySchema,
  cloudSetEnabledBodySchema,
  cloudSettingsBodySchema,
  isMessageKey,
  noQuerySchema,
  translate,
  type CloudChange,
  type Envelope,
  type MessageKey,
} from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm, type Access } from '../http/access.ts';
import { ok } from '../http/reply.ts';

/** Who made the change and from where: the agent logs both and keeps that address out of every feed. */
const whoOf = (request: FastifyRequest) => ({ account: request.user?.username ?? '', ip: (request.ip || '').slice(0, 64) });

/** A change's answer: a refusal in the caller's language (code 2, HTTP 200, the key and detail as data), else `done`. */
function changeReply(request: FastifyRequest, change: CloudChange, done: MessageKey): Envelope<CloudChange | { refused: string; detail: string }> {
  if (change.refused) {
    const key: MessageKey = isMessageKey(change.refused) ? change.refused : 'bad_request';
    return { code: Code.error, msg: translate(request.lang, key, { detail: change.detail }), data: { refused: change.refused, detail: change.detail }, lang: request.lang };
  }
  return ok(request, change, done, { detail: change.detail });
}

/** Switching feeds on needs `enable`, off needs `disable`: decided from the validated body. */
const switchAccess: Access = {
  kind: 'permissions',
  resolve: (request) => [{ key: 'cloud', action: (request.body as { enabled: boolean }).enabled ? 'enable' : 'disable' }],
};

/**
 * Cloud protection (`/cloud`, permission key `cloud`): threat-intel feeds, their pinned keys and
 * the administrator's own ranges. The agent owns all of it; these are thin, schema-checked calls.
 * Reads are `query`; pinning a key and adding a URL feed `add`; importing a bundle file `import`;
 * intervals, updates now and own ranges `edit`; switching feeds `enable` / `disable`; deleting `delete`.
 */
export const cloudRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  const call = ctx.agent.call.bind(ctx.agent);

  app.get('/cloud/status', { config: { access: perm('cloud', 'query') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await call('cloud.status', {})));
  app.post('/cloud/keys/add', { config: { access: perm('cloud', 'add') }, schema: { querystring: noQuerySchema, body: cloudKeyAddBodySchema } }, async (request) =>
    changeReply(request, await call('cloud.keys.add', { ...request.body, ...whoOf(request) }), 'saved'));
  app.post('/cloud/keys/delete', { config: { access: perm('cloud', 'delete') }, schema: { querystring: noQuerySchema, body: cloudIdsBodySchema } }, async (request) =>
    changeReply(request, await call('cloud.keys.delete', { ids: request.body.ids, ...whoOf(request) }), 'notices_deleted'));
  // A bundle is one JSON file carried as text: room for it plus the JSON escaping of its newlines.
  app.post('/cloud/feeds/import', { config: { access: perm('cloud', 'import') }, schema: { querystring: noQuerySchema, body: cloudImportBodySchema }, bodyLimit: cloudBundleMaxChars * 2 }, async (request) =>
    changeReply(request, await call('cloud.feeds.import', { bundle: request.body.bundle, ...whoOf(request) }), 'cloud_imported'));
  app.post('/cloud/feeds/add_url', { config: { access: perm('cloud', 'add') }, schema: { querystring: noQuerySchema, body: cloudAddUrlBodySchema } }, async (request) =>
    changeReply(request, await call('cloud.feeds.add_url', { ...request.body, ...whoOf(request) }), 'cloud_imported'));
  app.post('/cloud/feeds/update', { config: { access: perm('cloud', 'edit') }, schema: { querystring: noQuerySchema, body: cloudFeedIdBodySchema } }, async (request) =>
    changeReply(request, await call('cloud.feeds.update', { id: request.body.id, ...whoOf(request) }), 'cloud_updated'));
  app.post('/cloud/feeds/edit', { config: { access: perm('cloud', 'edit') }, schema: { querystring: noQuerySchema, body: cloudFeedEditBodySchema } }, async (request) =>
    changeReply(request, await call('cloud.feeds.edit', { ...request.body, ...whoOf(request) }), 'saved'));
  app.post('/cloud/feeds/enable', { config: { access: switchAccess }, schema: { querystring: noQuerySchema, body: cloudSetEnabledBodySchema } }, async (request) =>
    changeReply(request, await call('cloud.feeds.set_enabled', { ...request.body, ...whoOf(request) }), 'saved'));
  app.post('/cloud/feeds/delete', { config: { access: perm('cloud', 'delete') }, schema: { querystring: noQuerySchema, body: cloudIdsBodySchema } }, async (request) =>
    changeReply(request, await call('cloud.feeds.delete', { ids: request.body.ids, ...whoOf(request) }), 'notices_deleted'));
  app.post('/cloud/settings', { config: { access: perm('cloud', 'edit') }, schema: { querystring: noQuerySchema, body: cloudSettingsBodySchema } }, async (request) =>
    changeReply(request, await call('cloud.settings.set', { settings: request.body.settings, ...whoOf(request) }), 'saved'));
};
