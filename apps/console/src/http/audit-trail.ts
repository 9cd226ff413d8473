import { eventModules, type EventModule } from '@rampart/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConsoleContext } from '../context.ts';

const modules: ReadonlySet<string> = new Set(eventModules);

function moduleOf(request: FastifyRequest): EventModule {
  const access = request.routeOptions.config.access;
  const key = access?.kind === 'permission' ? access.key : undefined;
  return key && modules.has(key) ? (key as EventModule) : 'system';
}

/** ok when the envelope says success or warning; failed when it refuses (code 2); refused for an HTTP error. */
function resultOf(status: number, payload: unknown): 'ok' | 'failed' | 'refused' {
  if (status >= 400) return 'refused';
  const head = typeof payload === 'string' ? payload.slice(0, 12) : '';
  return /^\{"code":[01][,}]/.test(head) ? 'ok' : 'failed';
}

/**
 * Records every state-changing call of a signed-in account in the event store: who, from where,
 * which call and how it ended. Routes that record a more telling event of their own (sign-out,
 * module switch) say `audit: false`.
 */
export function installAuditTrail(app: FastifyInstance, ctx: ConsoleContext): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method === 'GET' || request.method === 'HEAD' || !request.user) return payload;
    if (request.routeOptions.config.audit === false) return payload;
    // Input the schema refused changed nothing and is not an action; a refused permission (403) is kept.
    if (reply.statusCode === 400 || reply.statusCode === 413 || reply.statusCode === 429) return payload;
    const result = resultOf(reply.statusCode, payload);
    ctx.events.record({
      kind: 'panel.action',
      module: moduleOf(request),
      level: result === 'ok' ? 'info' : 'warning',
      source: 'console',
      account: request.user.username,
      ip: request.ip,
      params: { account: request.user.username, action: `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`, result },
    });
    return payload;
  });
}
