import {
  emptyBodySchema,
  noQuerySchema,
  trustAddBodySchema,
  trustAutoAddSchema,
  trustIdsQuerySchema,
  trustListQuerySchema,
  trustRenewBodySchema,
  terminalIdQuerySchema,
} from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { getSetting, setSetting } from '../db/settings.ts';
import { perm } from '../http/access.ts';
import { failure, ok } from '../http/reply.ts';
import { deleteTerminal, findTerminal, listTerminals } from '../db/trust-terminals.ts';
import { recordTerminalEvent, releaseAddress, rowOf } from '../services/trust-terminals.ts';

const dayMs = 86_400_000;

/** The end of a validity of `days` from now; 0 is permanent (no end). */
export function trustExpiry(now: number, days: number): number | null {
  return days === 0 ? null : now + days * dayMs;
}

/**
 * System settings, trust_terminal tab: the super whitelist. The list is the agent's (every engine
 * reads it there, and the firewall puts it first in the kernel); the console adds who and when.
 */
export const systemTrustRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/system/trust/ip', { config: { access: perm('system', 'get') }, schema: { querystring: trustListQuerySchema } }, async (request) => {
    const { keyword, page = 1, size = 20 } = request.query;
    const result = await ctx.agent.call('trust.list', { ...(keyword ? { keyword } : {}), offset: (page - 1) * size, limit: size });
    // The caller's own address, offered as a quick fill in the add form.
    return ok(request, { ...result, client_ip: request.ip, now: ctx.now() });
  });

  app.post('/system/trust/ip', { config: { access: perm('system', 'add') }, schema: { querystring: noQuerySchema, body: trustAddBodySchema } }, async (request) => {
    const { ips, days, remark } = request.body;
    const { changed } = await ctx.agent.call('trust.add', {
      addresses: ips,
      added_by: request.user?.username ?? '',
      remark,
      expires_at: trustExpiry(ctx.now(), days),
      source: 'manual',
    });
    const skipped = new Set(ips).size - changed;
    // The website gateway lets the super whitelist through: it learns the change now.
    if (changed > 0) ctx.policy.changed();
    return ok(request, { added: changed, skipped }, 'trust_added', { added: changed, skipped });
  });

  app.post(
    '/system/trust/ip_delete',
    { config: { access: perm('system', 'delete') }, schema: { querystring: trustIdsQuerySchema, body: emptyBodySchema } },
    async (request) => {
      const { changed } = await ctx.agent.call('trust.delete', { target: request.query.id });
      if (changed === 0) return failure(request, 'trust_not_found');
      ctx.policy.changed();
      return ok(request, { changed }, 'trust_deleted', { count: changed });
    },
  );

  app.post(
    '/system/trust/ip/renewal',
    { config: { access: perm('system', 'edit') }, schema: { querystring: trustIdsQuerySchema, body: trustRenewBodySchema } },
    async (request) => {
      const { changed } = await ctx.agent.call('trust.renew', { ids: request.query.id, days: request.body.days });
      if (changed === 0) return failure(request, 'trust_not_found');
      ctx.policy.changed();
      return ok(request, { changed }, 'trust_renewed');
    },
  );

  /* Trust terminals (routes/terminal.ts): who holds which address, and ending one. */
  app.get('/system/trust/terminals', { config: { access: perm('system', 'get') }, schema: { querystring: noQuerySchema } }, async (request) => {
    const now = ctx.now();
    return ok(request, { list: listTerminals(ctx.db).map((row) => rowOf(ctx, row, now)) });
  });
  app.post(
    '/system/trust/terminals/end',
    { config: { access: perm('system', 'delete'), audit: false }, schema: { querystring: terminalIdQuerySchema, body: emptyBodySchema } },
    async (request) => {
      const terminal = findTerminal(ctx.db, request.query.id);
      if (!terminal) return failure(request, 'terminal_not_found');
      await releaseAddress(ctx, terminal, ctx.now());
      deleteTerminal(ctx.db, terminal.id);
      recordTerminalEvent(ctx, 'terminal.ended', terminal, 'info', { by: request.user!.username });
      return ok(request, undefined, 'terminal_ended_by_admin');
    },
  );

  /* The automatic add at panel sign-in (see services/after-sign-in.ts). */
  app.get('/system/trust/auto', { config: { access: perm('system', 'get') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, getSetting(ctx.db, 'trust_auto_add')));
  app.post('/system/trust/auto', { config: { access: perm('system', 'edit') }, schema: { querystring: noQuerySchema, body: trustAutoAddSchema } }, async (request) => {
    setSetting(ctx.db, 'trust_auto_add', request.body);
    return ok(request, request.body, 'saved');
  });
};
