import { emptyBodySchema, noQuerySchema, terminalStartBodySchema, type TerminalAddress } from '@rampart/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { deleteTerminal, updateTerminal } from '../db/trust-terminals.ts';
import { terminalAccess } from '../http/access.ts';
import { failure, ok } from '../http/reply.ts';
import { clientAddress, isLoopback } from '../portal/addresses.ts';
import {
  areasOf, holdAddress, proxyHeadersOf, recordTerminalEvent, releaseAddress, sharedWith, statusOf,
} from '../services/trust-terminals.ts';

/**
 * Per address. A terminal beats twice a minute; an office behind one address may run dozens, and a
 * token is earned by a full sign-in, so the limit only stops a runaway client.
 */
const terminalRateLimit = { max: 120, timeWindow: '1 minute' };

/**
 * The trust terminal's calls (contracts/trust-terminal.ts). Each takes the terminal token a
 * `/login` with `client: "terminal"` gave, and nothing else: the token opens no console route, and
 * these routes take no console session. They record their own events (audit: false).
 */
export const terminalRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  const config = { access: terminalAccess, audit: false, rateLimit: terminalRateLimit };

  /** Where the terminal is seen from, and whether that address looks shared: shown before it is trusted. */
  app.get('/terminal/address', { config, schema: { querystring: noQuerySchema } }, async (request) => {
    const terminal = request.terminal!;
    const address: TerminalAddress = {
      ip: clientAddress(request.ip), areas: areasOf(ctx, request.ip), local: isLoopback(clientAddress(request.ip)),
      proxy_headers: proxyHeadersOf(request.headers), shared_with: sharedWith(ctx, request.ip, terminal.user_id),
    };
    return ok(request, address);
  });

  app.get('/terminal/status', { config, schema: { querystring: noQuerySchema } }, async (request) =>
    ok(request, statusOf(request.terminal!, ctx.now())));

  app.post('/terminal/start', { config, schema: { querystring: noQuerySchema, body: terminalStartBodySchema } }, async (request) => {
    const terminal = request.terminal!;
    const now = ctx.now();
    const { keep_hours: keepHours, accept_proxy: acceptProxy } = request.body;
    const headers = proxyHeadersOf(request.headers);
    const shared = sharedWith(ctx, request.ip, terminal.user_id);
    if (!acceptProxy && headers.length > 0) return failure(request, 'terminal_proxy_confirm', { headers: headers.join(', ') });
    if (!acceptProxy && shared > 0) return failure(request, 'terminal_shared_confirm', { count: shared });
    // Starting again from another address (after a move) lets the old one go first.
    if (terminal.ip !== request.ip) await releaseAddress(ctx, terminal, now);
    const keepUntil = keepHours === 0 ? null : now + keepHours * 3_600_000;
    const row = { ...terminal, ip: request.ip, keep_until: keepUntil };
    const hold = await holdAddress(ctx, row, now);
    updateTerminal(ctx.db, terminal.id, { ip: request.ip, keep_until: keepUntil, proxied: headers.length > 0 || shared > 0 ? 1 : 0, last_beat: now, ...hold });
    recordTerminalEvent(ctx, 'terminal.started', row, 'info', { keep_hours: keepHours });
    ctx.policy.changed();
    return ok(request, statusOf({ ...row, ...hold, last_beat: now }, now), 'terminal_started', { ip: clientAddress(request.ip) });
  });

  app.post('/terminal/beat', { config, schema: { querystring: noQuerySchema, body: emptyBodySchema } }, async (request) => {
    const terminal = request.terminal!;
    const now = ctx.now();
    const started = terminal.trusted_until !== null || terminal.covered === 1 || terminal.lapsed_at !== null;
    if (!started) {
      updateTerminal(ctx.db, terminal.id, { last_beat: now });
      return ok(request, statusOf({ ...terminal, last_beat: now }, now));
    }
    if (terminal.ip !== request.ip) {
      // The proxy check runs again for the new address: the terminal has to start again.
      await releaseAddress(ctx, terminal, now);
      updateTerminal(ctx.db, terminal.id, { ip: request.ip, trusted_until: null, covered: 0, lapsed_at: null, proxied: 0, last_beat: now });
      return failure(request, 'terminal_address_changed', { old: clientAddress(terminal.ip), ip: clientAddress(request.ip) });
    }
    const lapsed = terminal.lapsed_at !== null || (terminal.trusted_until !== null && terminal.trusted_until <= now);
    const hold = await holdAddress(ctx, terminal, now);
    updateTerminal(ctx.db, terminal.id, { ...hold, last_beat: now });
    if (lapsed) {
      recordTerminalEvent(ctx, 'terminal.beat_gap', terminal, 'warning', { minutes: Math.round((now - terminal.last_beat) / 60_000) });
      ctx.policy.changed();
    }
    return ok(request, statusOf({ ...terminal, ...hold, last_beat: now }, now));
  });

  app.post('/terminal/stop', { config, schema: { querystring: noQuerySchema, body: emptyBodySchema } }, async (request) => {
    const terminal = request.terminal!;
    await releaseAddress(ctx, terminal, ctx.now());
    deleteTerminal(ctx.db, terminal.id);
    recordTerminalEvent(ctx, 'terminal.stopped', terminal, 'info');
    return ok(request, undefined, 'terminal_stopped');
  });
};
