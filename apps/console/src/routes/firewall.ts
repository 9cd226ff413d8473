import {
  attackSettingsSchema,
  firewallConfirmBodySchema,
  firewallExportQuerySchema,
  firewallIdsBodySchema,
  firewallInterceptAddBodySchema,
  firewallInterceptDeleteBodySchema,
  firewallInterceptQuerySchema,
  firewallListAddBodySchema,
  firewallListDeleteBodySchema,
  firewallListImportBodySchema,
  firewallListQuerySchema,
  firewallPlainQuerySchema,
  firewallRuleEditSchema,
  firewallRuleInputSchema,
  firewallRulesQuerySchema,
  listChunkSize,
  noQuerySchema,
  probationSeconds,
  type FirewallChange,
  type FirewallGuard,
} from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { failure, ok, warning } from '../http/reply.ts';
import { parseImportText } from '../services/list-import.ts';

/** Where the administrator is, so the agent keeps them reachable (the port this request came in on is the panel's). */
function guardOf(request: FastifyRequest): FirewallGuard {
  // Injected test requests have no socket port: the default panel port stands in.
  const port = Number(request.socket.localPort) || 6688;
  return { admin_ip: request.ip || null, panel_port: port, account: request.user?.username ?? '' };
}

/** A change's answer: refused, on probation (confirm within the time), applied with a warning, or done. */
function changeReply(request: FastifyRequest, change: FirewallChange, guard: FirewallGuard) {
  if (change.refused) return failure(request, change.refused);
  if (change.probation) return warning(request, 'fw_probation_notice', change, { ip: guard.admin_ip ?? '', seconds: probationSeconds });
  if (change.warnings.includes('own_ip_blocked')) return warning(request, 'fw_own_ip_blocked', change);
  if (change.warnings.includes('panel_port_closed')) return warning(request, 'fw_panel_port_closed', change, { port: guard.panel_port });
  return ok(request, change, 'saved');
}

const pageOf = (query: { page?: number; size?: number }) => {
  const size = query.size ?? 20;
  return { offset: ((query.page ?? 1) - 1) * size, limit: size };
};

/** The host firewall (`/firewall` tabs): rules, attack protection, black and white lists, the interception list. */
export const firewallRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  const call = ctx.agent.call.bind(ctx.agent);

  app.get('/firewall/status', { config: { access: perm('firewall', 'query') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await call('firewall.status', {})));

  /* Inbound and outbound rules. */
  app.get('/firewall/rules', { config: { access: perm('firewall', 'query') }, schema: { querystring: firewallRulesQuerySchema } }, async (request) => {
    const { direction, keyword } = request.query;
    return ok(request, await call('firewall.rules.list', { direction, ...(keyword ? { keyword } : {}), ...pageOf(request.query) }));
  });
  app.post('/firewall/rules/add', { config: { access: perm('firewall', 'add') }, schema: { querystring: noQuerySchema, body: firewallRuleInputSchema } }, async (request) => {
    const guard = guardOf(request);
    return changeReply(request, await call('firewall.rules.add', { rule: request.body, guard }), guard);
  });
  app.post('/firewall/rules/edit', { config: { access: perm('firewall', 'edit') }, schema: { querystring: noQuerySchema, body: firewallRuleEditSchema } }, async (request) => {
    const guard = guardOf(request);
    return changeReply(request, await call('firewall.rules.edit', { rule: request.body, guard }), guard);
  });
  for (const [path, enabled, action] of [['/firewall/rules/enable', true, 'enable'], ['/firewall/rules/disable', false, 'disable']] as const) {
    app.post(path, { config: { access: perm('firewall', action) }, schema: { querystring: noQuerySchema, body: firewallIdsBodySchema } }, async (request) => {
      const guard = guardOf(request);
      return changeReply(request, await call('firewall.rules.set_enabled', { ids: request.body.ids, enabled, guard }), guard);
    });
  }
  app.post('/firewall/rules/delete', { config: { access: perm('firewall', 'delete') }, schema: { querystring: noQuerySchema, body: firewallIdsBodySchema } }, async (request) => {
    const guard = guardOf(request);
    return changeReply(request, await call('firewall.rules.delete', { ids: request.body.ids, guard }), guard);
  });

  /* Attack protection. */
  app.get('/firewall/attack', { config: { access: perm('firewall', 'get') }, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, await call('firewall.attack.get', {})));
  app.post('/firewall/attack', { config: { access: perm('firewall', 'edit') }, schema: { querystring: noQuerySchema, body: attackSettingsSchema } }, async (request) => {
    await call('firewall.attack.set', { settings: request.body });
    return ok(request, await call('firewall.attack.get', {}), 'saved');
  });

  /* Black and white lists. */
  app.get('/firewall/lists', { config: { access: perm('firewall', 'query') }, schema: { querystring: firewallListQuerySchema } }, async (request) => {
    const { list, keyword } = request.query;
    return ok(request, await call('firewall.lists.list', { list, ...(keyword ? { keyword } : {}), ...pageOf(request.query) }));
  });
  app.post('/firewall/lists/add', { config: { access: perm('firewall', 'add') }, schema: { querystring: noQuerySchema, body: firewallListAddBodySchema }, bodyLimit: 4 * 1024 * 1024 }, async (request) => {
    const guard = guardOf(request);
    if (request.body.expires_at !== null && request.body.expires_at <= ctx.now()) return failure(request, 'fw_expiry_invalid');
    return changeReply(request, await call('firewall.lists.add', { ...request.body, guard }), guard);
  });
  app.post('/firewall/lists/delete', { config: { access: perm('firewall', 'delete') }, schema: { querystring: noQuerySchema, body: firewallListDeleteBodySchema } }, async (request) => {
    const guard = guardOf(request);
    return changeReply(request, await call('firewall.lists.delete', { list: request.body.list, target: request.body.ids, guard }), guard);
  });
  app.post(
    '/firewall/lists/import',
    { config: { access: perm('firewall', 'import') }, schema: { querystring: noQuerySchema, body: firewallListImportBodySchema }, bodyLimit: 64 * 1024 * 1024 },
    async (request) => {
      const parsed = parseImportText(request.body.content);
      if (parsed.invalid) return failure(request, 'fw_import_invalid_line', parsed.invalid);
      if (parsed.addresses.length === 0) return failure(request, 'fw_import_empty');
      const guard = guardOf(request);
      let added = 0;
      let last: FirewallChange = { refused: null, probation: null, warnings: [], changed: 0 };
      for (let i = 0; i < parsed.addresses.length; i += listChunkSize) {
        const addresses = parsed.addresses.slice(i, i + listChunkSize);
        const change = await call('firewall.lists.add', { list: request.body.list, addresses, remark: request.body.remark, expires_at: null, guard }, { timeoutMs: 120_000 });
        if (change.refused) return failure(request, change.refused);
        added += change.changed;
        last = { ...change, probation: change.probation ?? last.probation, warnings: [...new Set([...last.warnings, ...change.warnings])] };
      }
      const result = { ...last, added, skipped: parsed.addresses.length - added };
      if (last.probation || last.warnings.length > 0) return changeReply(request, result, guard);
      return ok(request, result, 'fw_import_done', { added, skipped: result.skipped });
    },
  );
  app.get('/firewall/export', { config: { access: perm('firewall', 'export') }, schema: { querystring: firewallExportQuerySchema } }, async (request, reply) => {
    const { list } = request.query;
    const lines: string[] = [`# Rampart ${list} list, ${new Date(ctx.now()).toISOString()}`];
    for (let offset = 0; ; offset += listChunkSize) {
      const page = list === 'intercept'
        ? await call('firewall.intercept.list', { offset, limit: listChunkSize })
        : await call('firewall.lists.list', { list, offset, limit: listChunkSize });
      for (const entry of page.list) {
        const address = 'ip' in entry ? entry.ip : entry.address;
        const note = 'remark' in entry ? entry.remark : entry.reason;
        lines.push(note ? `${address} # ${note.replace(/[\r\n]+/g, ' ')}` : address);
      }
      if (page.list.length < listChunkSize) break;
    }
    return reply
      .type('text/plain; charset=utf-8')
      .header('content-disposition', `attachment; filename="rampart-${list}-list.txt"`)
      .send(`${lines.join('\n')}\n`);
  });

  /* The interception list. */
  app.get('/firewall/intercept', { config: { access: perm('firewall', 'query') }, schema: { querystring: firewallInterceptQuerySchema } }, async (request) => {
    const { keyword } = request.query;
    return ok(request, await call('firewall.intercept.list', { ...(keyword ? { keyword } : {}), ...pageOf(request.query) }));
  });
  app.post('/firewall/intercept/add', { config: { access: perm('firewall', 'add') }, schema: { querystring: noQuerySchema, body: firewallInterceptAddBodySchema } }, async (request) => {
    const guard = guardOf(request);
    return changeReply(request, await call('firewall.intercept.add', { ...request.body, guard }), guard);
  });
  app.post('/firewall/intercept/delete', { config: { access: perm('firewall', 'delete') }, schema: { querystring: noQuerySchema, body: firewallInterceptDeleteBodySchema } }, async (request) => {
    const change = await call('firewall.intercept.delete', { target: request.body.ids });
    return ok(request, change, 'fw_unblocked');
  });

  /* Keeping a change that is on probation. */
  app.get('/firewall/probation', { config: { access: perm('firewall', 'query') }, schema: { querystring: firewallPlainQuerySchema } }, async (request) =>
    ok(request, (await call('firewall.status', {})).probation));
  app.post('/firewall/confirm', { config: { access: perm('firewall', 'edit') }, schema: { querystring: noQuerySchema, body: firewallConfirmBodySchema } }, async (request) => {
    const { confirmed } = await call('firewall.confirm', { token: request.body.token });
    return confirmed ? ok(request, { confirmed }, 'fw_confirmed') : failure(request, 'fw_probation_gone');
  });
};

