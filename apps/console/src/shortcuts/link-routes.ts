import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ConsoleContext } from '../context.ts';
import { isRegistered } from '../db/registration.ts';
import { requestLanguage } from '../http/language.ts';
import { activeByToken, claimRun, releaseRun } from './store.ts';
import { runOperation } from './operations.ts';
import { confirmPage, notFoundPage, resultPage } from './page.ts';

/** Opening pages is cheap but guessing tokens must stay slow; runs are rarer still. */
const openRateLimit = { max: 30, timeWindow: '1 minute' };
const runRateLimit = { max: 10, timeWindow: '1 minute' };

const paramsSchema = z.object({ token: z.string().max(100) });

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    // The token is the secret: no caches, no search engines, no referrer (the console sends no-referrer everywhere).
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex, nofollow')
    .send(html);
}

/** Registration lapsed: links do nothing until the console is registered again; the page says why. */
function refusedWhileUnregistered(ctx: ConsoleContext, request: FastifyRequest, reply: FastifyReply): FastifyReply | null {
  if (isRegistered(ctx.db, ctx.now())) return null;
  const lang = requestLanguage(request);
  return sendPage(reply, 503, resultPage(lang, '', false, 'not_registered', {}));
}

/**
 * The public side of shortcuts, outside /magapi and outside the session guard: the link's token is
 * the credential. GET only shows what would run (link previewers and prefetchers stop there);
 * the page's button POSTs back to the same address, and only that runs the operation.
 */
export const shortcutLinkRoutes = (ctx: ConsoleContext): FastifyPluginAsync => async (app) => {
  // The confirmation page posts an HTML form; its body carries nothing the run needs.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) => done(null, {}));

  // logLevel warn: the request log lines would carry the URL, and the token in it is the credential.
  app.get('/shortcut/:token', { logLevel: 'warn', config: { rateLimit: openRateLimit } }, async (request, reply) => {
    const refused = refusedWhileUnregistered(ctx, request, reply);
    if (refused) return refused;
    const lang = requestLanguage(request);
    const parsed = paramsSchema.safeParse(request.params);
    const shortcut = parsed.success ? activeByToken(ctx.db, parsed.data.token, ctx.now()) : null;
    if (!shortcut) return sendPage(reply, 404, notFoundPage(lang));
    return sendPage(reply, 200, confirmPage(lang, shortcut.name, shortcut.action, request.ip));
  });

  app.post('/shortcut/:token', { logLevel: 'warn', config: { rateLimit: runRateLimit } }, async (request, reply) => {
    const refused = refusedWhileUnregistered(ctx, request, reply);
    if (refused) return refused;
    const lang = requestLanguage(request);
    const parsed = paramsSchema.safeParse(request.params);
    const shortcut = parsed.success ? claimRun(ctx.db, parsed.data.token, request.ip, ctx.now()) : null;
    if (!shortcut) return sendPage(reply, 404, notFoundPage(lang));
    const { action, name } = shortcut;
    const base = { module: 'system' as const, source: 'shortcut', account: '', ip: request.ip };
    try {
      const outcome = await runOperation(ctx, action, `shortcut:${name}`.slice(0, 64));
      ctx.events.record({
        ...base, kind: `shortcut.${action.operation}`, level: action.operation === 'resume_protection' ? 'info' : 'warning',
        params: { name, ...outcome.params },
      });
      return sendPage(reply, 200, resultPage(lang, name, true, outcome.msg, outcome.params));
    } catch (error) {
      request.log.warn({ err: error }, 'shortcut run failed');
      releaseRun(ctx.db, shortcut.id);
      ctx.events.record({ ...base, kind: 'shortcut.failed', level: 'warning', params: { name, reason: error instanceof Error ? error.message.slice(0, 200) : 'error' } });
      return sendPage(reply, 200, resultPage(lang, name, false, 'agent_unreachable', {}));
    }
  });
};
