import {
  agentRequestSchema,
  agentResultSchemas,
  type AgentMethod,
  type AgentParsedParams,
  type AgentRequest,
  type AgentResponse,
  type AgentResult,
} from '@rampart/contracts';
import { z } from 'zod';
import { errorResponse, okResponse, unknownRequestId } from './responses.ts';

/** One async function per agent method. */
export type AgentHandlers = { [M in AgentMethod]: (params: AgentParsedParams<M>) => Promise<AgentResult<M>> };

const knownMethods: ReadonlySet<string> = new Set(Object.keys(agentResultSchemas));
const requestKeys: ReadonlySet<string> = new Set(['id', 'method', 'params']);
const utf8 = new TextDecoder('utf-8', { fatal: true });
const maxMessageLength = 500;

function shorten(text: string): string {
  return text.length > maxMessageLength ? `${text.slice(0, maxMessageLength)}…` : text;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function idOf(value: Record<string, unknown>): number {
  const id = value.id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : unknownRequestId;
}

/** Decodes and checks one request line; returns the request or the error response to send. */
export function parseRequest(line: Uint8Array): AgentRequest | AgentResponse {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(line));
  } catch (error) {
    return errorResponse(unknownRequestId, 'bad_request', `not a JSON line: ${shorten(messageOf(error))}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return errorResponse(unknownRequestId, 'bad_request', 'a request must be a JSON object {id, method, params}');
  }
  const record = value as Record<string, unknown>;
  const id = idOf(record);
  if (typeof record.method === 'string' && !knownMethods.has(record.method)) {
    return errorResponse(id, 'unknown_method', `unknown method: ${shorten(record.method)}`);
  }
  // The agent is stricter than the shared schema here: unknown top-level keys are refused too.
  const extra = Object.keys(record).filter((key) => !requestKeys.has(key));
  if (extra.length) return errorResponse(id, 'bad_request', shorten(`unknown request fields: ${extra.join(', ')}`));
  const parsed = agentRequestSchema.safeParse(value);
  if (!parsed.success) return errorResponse(id, 'bad_request', shorten(z.prettifyError(parsed.error)));
  return parsed.data;
}

function isRequest(value: AgentRequest | AgentResponse): value is AgentRequest {
  return 'method' in value;
}

/**
 * Answers one request line. Never throws: a handler failure becomes `failed`, and a result
 * that does not match its contract is not sent (it would be a bug here, so it is logged).
 */
export async function dispatchLine(
  line: Uint8Array,
  handlers: AgentHandlers,
  log: (line: string) => void,
): Promise<AgentResponse> {
  const request = parseRequest(line);
  if (!isRequest(request)) return request;
  let result: unknown;
  try {
    const handler = handlers[request.method] as (params: unknown) => Promise<unknown>;
    result = await handler(request.params);
  } catch (error) {
    log(`${request.method} failed: ${messageOf(error)}`);
    return errorResponse(request.id, 'failed', shorten(messageOf(error)));
  }
  const checked = agentResultSchemas[request.method].safeParse(result);
  if (!checked.success) {
    log(`${request.method} produced a result outside its contract: ${z.prettifyError(checked.error)}`);
    return errorResponse(request.id, 'failed', `${request.method} produced an invalid result`);
  }
  return okResponse(request.id, checked.data);
}
