import {
  Code,
  emptyBodySchema,
  isMessageKey,
  noQuerySchema,
  releaseBodySchema,
  releaseQuerySchema,
  translate,
  type Envelope,
  type MessageKey,
  type ReleaseAnswer,
  type ReleaseView,
} from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConsoleContext } from '../context.ts';
import { perm } from '../http/access.ts';
import { failure, ok, warning } from '../http/reply.ts';

/** A rebuild of the helper compiles C and BPF: minutes on a busy machine, not the usual 5 s. */
const kernelUpdateTimeoutMs = 6 * 60_000;
/** Every URL feed is fetched (30 s each at most) and the rule sets compiled. */
const virlibUpdateTimeoutMs = 5 * 60_000;

/** A refusal in the caller's language with its key and detail as data (code 2), or nothing. */
function refusal(request: FastifyRequest, refused: string | null, detail: string, params: Record<string, string | number> = {}): Envelope<{ refused: string; detail: string }> | null {
  if (!refused) return null;
  const key: MessageKey = isMessageKey(refused) ? refused : 'bad_request';
  return { code: Code.error, msg: translate(request.lang, key, { detail, ...params }), data: { refused, detail }, lang: request.lang };
}

/** The check's outcome in words, for the check call's answer. */
function checkMessage(view: ReleaseView): { key: MessageKey; params: Record<string, string> } | null {
  const { check } = view;
  if (check.state === 'available' && check.latest) return { key: 'release_available', params: { version: check.latest.version } };
  if (check.state === 'up_to_date') return { key: 'release_up_to_date', params: { version: view.current } };
  if ((check.state === 'offline' || check.state === 'refused' || check.state === 'no_key') && isMessageKey(check.reason)) return { key: check.reason, params: { url: view.url, detail: check.detail } };
  return null;
}

/**
 * The home page's update calls (`home` permission): the driver update and the cloud library update
 * (`edit`), and Rampart releases (read with `get`, download and settings with `edit`). The agent
 * does the work; a call while the agent is away says so.
 */
export const homeUpdateRoutes = (ctx: ConsoleContext): FastifyPluginAsyncZod => async (app) => {
  const authority = () => ({ authority_url: ctx.licence.baseUrl });

  app.post('/home/update_kernel', { config: { access: perm('home', 'edit') }, schema: { querystring: noQuerySchema, body: emptyBodySchema } }, async (request) => {
    let result;
    try {
      result = await ctx.agent.call('home.update_kernel', {}, { timeoutMs: kernelUpdateTimeoutMs });
    } catch {
      return failure(request, 'agent_unreachable');
    }
    const refused = refusal(request, result.refused, '');
    if (refused) return refused;
    if (result.build === 'failed') return warning(request, 'update_kernel_build_failed', result, { detail: result.build_error.split('\n').pop() ?? '' });
    if (result.status.status === 'normal') return ok(request, result, 'update_kernel_normal');
    return warning(request, 'update_kernel_abnormal', result);
  });

  app.post('/home/update_virlib', { config: { access: perm('home', 'edit') }, schema: { querystring: noQuerySchema, body: emptyBodySchema } }, async (request) => {
    let result;
    try {
      result = await ctx.agent.call('home.update_virlib', {}, { timeoutMs: virlibUpdateTimeoutMs });
    } catch {
      return failure(request, 'agent_unreachable');
    }
    const refused = refusal(request, result.refused, '');
    if (refused) return refused;
    const count = (state: string) => result.components.filter((part) => part.state === state).length;
    const params = { updated: count('updated'), unchanged: count('unchanged'), failed: count('failed') };
    return params.failed > 0 ? warning(request, 'update_virlib_partly', result, params) : ok(request, result, 'update_virlib_done', params);
  });

  app.get('/home/update', { config: { access: perm('home', 'get') }, schema: { querystring: releaseQuerySchema } }, async (request) => {
    let answer: ReleaseAnswer;
    try {
      answer = await ctx.agent.call(request.query.check === '1' ? 'release.check' : 'release.status', authority(), { timeoutMs: 30_000 });
    } catch {
      return failure(request, 'agent_unreachable');
    }
    if (request.query.check !== '1') return ok(request, answer.view);
    const said = checkMessage(answer.view);
    // Offline or refused is an answer, not an error: the page shows why beside the current version.
    return said ? ok(request, answer.view, said.key, said.params) : ok(request, answer.view);
  });

  app.post('/home/update', { config: { access: perm('home', 'edit') }, schema: { querystring: noQuerySchema, body: releaseBodySchema } }, async (request) => {
    const body = request.body;
    let answer: ReleaseAnswer;
    try {
      answer = body.action === 'settings'
        ? await ctx.agent.call('release.settings', { url: body.url, public_key: body.public_key, ...authority() })
        : await ctx.agent.call('release.download', authority());
    } catch {
      return failure(request, 'agent_unreachable');
    }
    const refused = refusal(request, answer.refused, answer.detail);
    if (refused) return refused;
    if (body.action === 'settings') return ok(request, answer.view, 'release_settings_saved');
    return ok(request, answer.view, 'release_download_started', { version: answer.view.download.version });
  });
};
