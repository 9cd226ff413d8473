import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConsoleContext } from '../context.ts';

/** What the account routes note for the event log: which account a call was about and what changed. */
const targets = new WeakMap<FastifyRequest, string>();

export function noteTarget(request: FastifyRequest, target: string): void {
  targets.set(request, target);
}

/** Same reading as the shared audit trail: ok (code 0/1), failed (code 2), refused (an HTTP error). */
function resultOf(status: number, payload: unknown): 'ok' | 'failed' | 'refused' {
  if (status >= 400) return 'refused';
  const head = typeof payload === 'string' ? payload.slice(0, 12) : '';
  return /^\{"code":[01][,}]/.test(head) ? 'ok' : 'failed';
}

/**
 * The account routes say `audit: false` to the shared trail and record here instead, because the
 * shared record names only the call ("POST /system/user_edit") and the account it was about sits
 * in the query. Choice: still the `panel.action` kind (its words exist in both languages), with
 * the target account and the changed fields (never a password) appended to the action, and the
 * target also as its own parameter so the log's keyword filter finds it. Same skips as the trail:
 * input the schema refused changed nothing and is not recorded; a refused permission (403) is.
 */
export function installAccountAudit(app: FastifyInstance, ctx: ConsoleContext): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method === 'GET' || request.method === 'HEAD' || !request.user) return payload;
    if (reply.statusCode === 400 || reply.statusCode === 413 || reply.statusCode === 429) return payload;
    const result = resultOf(reply.statusCode, payload);
    const target = targets.get(request) ?? '';
    const call = `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
    ctx.events.record({
      kind: 'panel.action',
      module: 'system',
      level: result === 'ok' ? 'info' : 'warning',
      source: 'console',
      account: request.user.username,
      ip: request.ip,
      params: { account: request.user.username, action: target ? `${call} ${target}` : call, result, ...(target ? { target } : {}) },
    });
    return payload;
  });
}
