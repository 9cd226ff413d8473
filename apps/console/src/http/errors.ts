import { isMessageKey, type MessageKey } from '@rampart/contracts';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AgentCallError, AgentUnavailableError } from '@rampart/agent-client';
import { failure, refuse } from './reply.ts';
import { requestLanguage } from './language.ts';

/**
 * Every failure leaves as an envelope in the caller's language: bad input is a 400 naming the
 * broken rule, never a 500; the agent being away is a message; only a real fault is a 500, and it is logged.
 */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    request.lang ??= requestLanguage(request);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const key: MessageKey = first && isMessageKey(first.message ?? '') ? (first.message as MessageKey) : 'bad_request';
      // The field the message belongs to, as a dotted path (`syslog.servers.0.host`), so forms can mark it.
      const field = (first?.instancePath ?? '').split('/').filter(Boolean).join('.');
      // A size or range rule's bound fills `{max}` / `{min}` in its message ("At most {max} IPs at a time").
      const bounds = (first?.params ?? {}) as { maximum?: number | bigint; minimum?: number | bigint };
      const params = {
        ...(bounds.maximum !== undefined ? { max: Number(bounds.maximum) } : {}),
        ...(bounds.minimum !== undefined ? { min: Number(bounds.minimum) } : {}),
      };
      return refuse(reply, 400, key, field ? { field } : undefined, params);
    }
    // A route that needs the agent while it is away (or refusing) gets a message the user can act
    // on, not a 500. Routes with a better answer (a saved desired state) catch it themselves.
    if (error instanceof AgentUnavailableError || error instanceof AgentCallError) {
      request.log.warn({ err: error }, 'agent call failed');
      return reply.code(200).send(failure(request, 'agent_unreachable'));
    }
    const status = error.statusCode ?? 500;
    if (status === 413) return refuse(reply, 413, 'body_too_large');
    if (status === 429) return refuse(reply, 429, 'rate_limited');
    if (status >= 400 && status < 500) return refuse(reply, 400, 'bad_request');
    request.log.error({ err: error }, 'request failed');
    return refuse(reply, 500, 'internal_error');
  });

  app.setNotFoundHandler((request, reply) => {
    request.lang = requestLanguage(request);
    return refuse(reply, 404, 'not_found');
  });
}
