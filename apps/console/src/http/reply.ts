import { Code, translate, type Envelope, type MessageKey } from '@rampart/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

type Params = Record<string, string | number>;

/** Success. Reads pass no message, so the client shows no modal for them. */
export function ok<T>(request: FastifyRequest, data?: T, msg?: MessageKey, params?: Params): Envelope<T> {
  return { code: Code.ok, msg: msg ? translate(request.lang, msg, params) : '', data, lang: request.lang };
}

export function warning<T>(request: FastifyRequest, msg: MessageKey, data?: T, params?: Params): Envelope<T> {
  return { code: Code.warning, msg: translate(request.lang, msg, params), data, lang: request.lang };
}

/** A refused request the user can correct (wrong password, unknown code): HTTP 200, code 2. */
export function failure(request: FastifyRequest, msg: MessageKey, params?: Params): Envelope<never> {
  return { code: Code.error, msg: translate(request.lang, msg, params), lang: request.lang };
}

/** Ends the request with an HTTP status the client acts on (401, 403, 404, 503, 400, 413, 429). */
export function refuse(reply: FastifyReply, status: number, msg: MessageKey, data?: { field: string }, params?: Params): FastifyReply {
  return reply.code(status).send({ code: Code.error, msg: translate(reply.request.lang, msg, params), lang: reply.request.lang, ...(data ? { data } : {}) });
}
