/*
 * System settings, shortcut management (tab `shortcut`). The spec shows no fields; this is the design.
 *
 * A shortcut is a named operation an administrator can run from a link without opening the console,
 * e.g. from a phone after a notification. Operations (contracts/shortcuts.ts):
 *   pause_protection (minutes) · resume_protection · unblock_ip (ip: removes its interception-list
 *   entries through the agent) · restart_panel (agent `software.restart`).
 * Each shortcut has a name, the operation and its parameters, enabled, a validity end (or none),
 * a use limit (0 = none) and counts its uses, with the time and IP of the last one.
 *
 * The link: `<console origin>/shortcut/<token>`, outside /magapi, no session.
 *  - The token is 32 random bytes (base64url), stored only as its SHA-256, shown once when the
 *    shortcut is added or its link is re-issued (which kills the old one). Chosen over an HMAC with a
 *    console secret: each link can be revoked alone, and a copy of the database hands out no link.
 *  - Opening the link (GET) shows a small confirmation page in the browser's language
 *    (Accept-Language, zh-CN by default); only the POST of its button runs the operation, so link
 *    previewers and prefetchers that follow the link run nothing. Both are rate limited per IP.
 *  - Unknown, disabled, expired, used-up and deleted links all get the same plain 404 page.
 *  - Every run is an event (`shortcut.<operation>` or `shortcut.failed`) with the client's IP.
 *  - A use is counted before the run starts (a one-use link cannot run twice) and given back when the
 *    operation fails because the protection service is away.
 * `POST /system/shortcut/test` is a dry check: it reads what the operation would act on (protection
 * state, the address in the interception list, the agent answering) and says whether running the
 * link now would do something. It changes nothing.
 * `POST /system/shortcut/send` sends a link through the notification service (alerts tab, every
 * method it uses): since the console cannot rebuild a link, it issues a new one, which replaces the
 * old one only once a method took it. The browser gives the console's address it is opened at.
 */
import {
  maxShortcuts,
  noQuerySchema,
  shortcutDeleteBodySchema,
  shortcutIdBodySchema,
  shortcutInputSchema,
  shortcutSendBodySchema,
  type ShortcutInput,
  type ShortcutList,
  type ShortcutSaved,
  type ShortcutSendResult,
  type ShortcutTestResult,
} from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { failure, ok, warning } from '../http/reply.ts';
import { deleteShortcuts, linkPath, listShortcuts, reissueShortcut, saveShortcut, statusOf, viewOf } from '../shortcuts/store.ts';
import { dryCheck } from '../shortcuts/operations.ts';
import { sendShortcutLink } from '../shortcuts/send-link.ts';

/** System settings, shortcut management. */
export const systemShortcutRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/system/shortcut', { config: { access: perm('system', 'get') }, schema: { querystring: noQuerySchema } }, async (request) => {
    const now = ctx.now();
    const list: ShortcutList = { list: listShortcuts(ctx.db).map((s) => viewOf(s, now)), max: maxShortcuts };
    return ok(request, list);
  });

  /** Adds (no id: needs `add`) or edits (id: needs `edit`). */
  app.post(
    '/system/shortcut',
    {
      config: {
        access: { kind: 'permissions', resolve: (request) => [{ key: 'system', action: (request.body as ShortcutInput).id === undefined ? 'add' : 'edit' }] },
      },
      schema: { querystring: noQuerySchema, body: shortcutInputSchema },
    },
    async (request) => {
      const now = ctx.now();
      const outcome = saveShortcut(ctx.db, request.body, request.user?.username ?? '', now);
      if (!outcome.ok) return failure(request, outcome.msg, { max: maxShortcuts });
      const saved: ShortcutSaved = { shortcut: viewOf(outcome.shortcut, now), link: outcome.token ? linkPath(outcome.token) : null };
      return ok(request, saved, outcome.token ? 'sc_created' : 'saved');
    },
  );

  app.post(
    '/system/shortcut/reissue',
    { config: { access: perm('system', 'edit') }, schema: { querystring: noQuerySchema, body: shortcutIdBodySchema } },
    async (request) => {
      const issued = reissueShortcut(ctx.db, request.body.id);
      if (!issued) return failure(request, 'sc_not_found');
      const saved: ShortcutSaved = { shortcut: viewOf(issued.shortcut, ctx.now()), link: linkPath(issued.token) };
      return ok(request, saved, 'sc_reissued');
    },
  );

  app.post(
    '/system/shortcut/delete',
    { config: { access: perm('system', 'delete') }, schema: { querystring: noQuerySchema, body: shortcutDeleteBodySchema } },
    async (request) => {
      const removed = deleteShortcuts(ctx.db, request.body.ids);
      return removed === 0 ? failure(request, 'sc_not_found') : ok(request, { removed }, 'sc_deleted');
    },
  );

  /** The dry check: success when running the link now would act, a warning when it would not (or cannot). */
  app.post(
    '/system/shortcut/test',
    { config: { access: perm('system', 'edit') }, schema: { querystring: noQuerySchema, body: shortcutIdBodySchema } },
    async (request) => {
      const shortcut = listShortcuts(ctx.db).find((s) => s.id === request.body.id);
      if (!shortcut) return failure(request, 'sc_not_found');
      if (statusOf(shortcut, ctx.now()) !== 'active') return warning<ShortcutTestResult>(request, 'sc_test_inactive', { ready: false });
      const check = await dryCheck(ctx, shortcut.action);
      const data: ShortcutTestResult = { ready: check.ready };
      return check.ready ? ok(request, data, check.msg, check.params) : warning(request, check.msg, data, check.params);
    },
  );

  app.post(
    '/system/shortcut/send',
    { config: { access: perm('system', 'edit') }, schema: { querystring: noQuerySchema, body: shortcutSendBodySchema } },
    async (request) => {
      const outcome = await sendShortcutLink(ctx, request.body.id, request.body.origin);
      if (!outcome.ok) return failure(request, outcome.msg, { reason: outcome.reason });
      const data: ShortcutSendResult = { sent: outcome.sent, failed: outcome.failed };
      return outcome.failed > 0
        ? warning(request, 'sc_sent_partly', data, { sent: outcome.sent, failed: outcome.failed, reason: outcome.reason })
        : ok(request, data, 'sc_sent', { sent: outcome.sent });
    },
  );
};
