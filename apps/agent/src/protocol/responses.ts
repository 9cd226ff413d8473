import type { AgentResponse, agentErrorCodes } from '@rampart/contracts';

export type AgentErrorCode = (typeof agentErrorCodes)[number];

/** The id used when a request's own id cannot be read (bad JSON, no id); never a real call id. */
export const unknownRequestId = -1;

export function errorResponse(id: number, code: AgentErrorCode, message: string): AgentResponse {
  return { id, ok: false, error: { code, message } };
}

export function okResponse(id: number, result: unknown): AgentResponse {
  return { id, ok: true, result };
}
