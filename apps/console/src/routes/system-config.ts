import {
  configBackupFileQuerySchema, configBackupQuerySchema, configBackupRestoreQuerySchema, configMaxBytes, emptyBodySchema,
  isMessageKey, noQuerySchema, probationSeconds, translate, type ConfigRestoreResult, type FirewallGuard,
} from '@rampart/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { ConfigBackups, type Refused } from '../config-backup/config-backups.ts';
import { perm } from '../http/access.ts';
import { failure, ok, refuse, warning } from '../http/reply.ts';

/** Where the administrator is, so a restored firewall part keeps them reachable (as the firewall routes do). */
function guardOf(request: FastifyRequest): FirewallGuard {
  const port = Number(request.socket.localPort) || 6688;
  return { admin_ip: request.ip || null, panel_port: port, account: request.user?.username ?? '' };
}

/** Refusals that are about the uploaded file itself: bad input, answered 400 on the field `file`. */
const fileProblems: ReadonlySet<string> = new Set(['cfg_empty', 'cfg_not_json', 'cfg_foreign', 'cfg_newer_format', 'cfg_damaged', 'cfg_checksum_mismatch', 'cfg_invalid_item']);

/**
 * A refusal in the caller's language. An uploaded file that is not a valid configuration is bad
 * input (HTTP 400, code 2, `data.field = 'file'`); anything else (busy, another firewall change
 * awaiting confirmation, a stored backup gone) is a business refusal (HTTP 200, code 2).
 */
function refusedReply(request: FastifyRequest, reply: FastifyReply, { refused }: Refused, uploaded: boolean) {
  const params = { ...refused.params };
  // The broken rule's own message, in the caller's language ("Ports look like 80,443…").
  if (typeof params['reason'] === 'string') params['reason'] = translate(request.lang, isMessageKey(params['reason']) ? params['reason'] : 'bad_request');
  if (uploaded && fileProblems.has(refused.key)) return refuse(reply, 400, refused.key, { field: 'file' }, params);
  return failure(request, refused.key, params);
}

function restoredReply(request: FastifyRequest, reply: FastifyReply, result: ConfigRestoreResult | Refused, uploaded = false) {
  if ('refused' in result) return refusedReply(request, reply, result, uploaded);
  if (result.probation) return warning(request, 'cfg_restored_probation', result, { ip: request.ip, seconds: probationSeconds });
  if (result.secrets_dropped > 0) return warning(request, 'cfg_restored_secrets', result, { count: result.secrets_dropped });
  return ok(request, result, 'cfg_restored');
}

function sendFile(reply: FastifyReply, name: string, text: string) {
  return reply
    .type('application/octet-stream')
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'no-store')
    .send(text);
}

/**
 * System settings, configuration backup (the `config` tab). The spec names the calls; how we read them:
 *  GET  /system/config/export            download the configuration as it stands (a file)
 *  POST /system/config/import            upload a file and apply it now (checked whole first)
 *  POST /system/config/upload            upload a file and keep it as a server backup (checked, not applied)
 *  POST /system/config/restore           undo the last restore (apply the newest automatic backup)
 *  GET  /system/config/backup            the server backups (file, kind, software version, time, size)
 *  GET  /system/config/backup?file=…     download one server backup
 *  POST /system/config/backup            make a server backup now
 *  POST /system/config/backup/delete?file=…   delete one (added)
 *  POST /system/config/backup/restore?fid=…   apply one
 * An uploaded file is the raw body (`application/octet-stream`, `text/plain`) or its JSON
 * (`application/json`); no multipart. Every restore first saves the current configuration as an
 * automatic backup.
 */
export const systemConfigRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  const backups = new ConfigBackups(ctx);
  // Raw uploads (curl --data-binary @file); this parser lives in this plugin only.
  app.addContentTypeParser('application/octet-stream', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  const upload = { bodyLimit: configMaxBytes };

  app.get('/system/config/export', { config: { access: perm('system', 'export') }, schema: { querystring: noQuerySchema } }, async (_request, reply) => {
    const text = await backups.exportText();
    const day = new Date(ctx.now()).toISOString().slice(0, 10);
    return sendFile(reply, `rampart-config-${day}.json`, text);
  });

  app.post('/system/config/import', { config: { access: perm('system', 'import') }, schema: { querystring: noQuerySchema }, ...upload }, async (request, reply) =>
    restoredReply(request, reply, await backups.restore(request.body, guardOf(request)), true));

  app.post('/system/config/upload', { config: { access: perm('system', 'import') }, schema: { querystring: noQuerySchema }, ...upload }, async (request, reply) => {
    const result = await backups.upload(request.body);
    return 'refused' in result ? refusedReply(request, reply, result, true) : ok(request, result, 'cfg_uploaded');
  });

  app.post('/system/config/restore', { config: { access: perm('system', 'edit') }, schema: { querystring: noQuerySchema, body: emptyBodySchema } }, async (request, reply) =>
    restoredReply(request, reply, await backups.undoLast(guardOf(request))));

  // Listing is a read; downloading a backup is an export.
  const listOrDownload = {
    kind: 'permissions' as const,
    resolve: (request: FastifyRequest) => [{ key: 'system' as const, action: (request.query as { file?: string }).file === undefined ? ('get' as const) : ('export' as const) }],
  };
  app.get('/system/config/backup', { config: { access: listOrDownload }, schema: { querystring: configBackupQuerySchema } }, async (request, reply) => {
    const { file } = request.query;
    if (file === undefined) return ok(request, { list: await backups.store.list() });
    const text = await backups.store.read(file);
    return text === null ? failure(request, 'cfg_backup_not_found') : sendFile(reply, file, text);
  });

  app.post('/system/config/backup', { config: { access: perm('system', 'add') }, schema: { querystring: noQuerySchema, body: emptyBodySchema } }, async (request) =>
    ok(request, { file: await backups.backupNow('manual') }, 'cfg_backup_made'));

  app.post('/system/config/backup/delete', { config: { access: perm('system', 'delete') }, schema: { querystring: configBackupFileQuerySchema, body: emptyBodySchema } }, async (request) =>
    (await backups.store.remove(request.query.file)) ? ok(request, undefined, 'cfg_backup_deleted') : failure(request, 'cfg_backup_not_found'));

  app.post('/system/config/backup/restore', { config: { access: perm('system', 'edit') }, schema: { querystring: configBackupRestoreQuerySchema, body: emptyBodySchema } }, async (request, reply) =>
    restoredReply(request, reply, await backups.restoreStored(request.query.fid, guardOf(request))));
};
