import type { agentErrorCodes } from '@rampart/contracts';

export type AgentErrorCode = (typeof agentErrorCodes)[number];

/** The agent could not be reached, went away mid-call, or did not answer in time. */
export class AgentUnavailableError extends Error {
  override readonly name = 'AgentUnavailableError';
}

/**
 * The agent answered and refused (ok:false), or the exchange broke the contract:
 * `bad_request` is also used for a request this client refused to send.
 */
export class AgentCallError extends Error {
  override readonly name = 'AgentCallError';
  readonly code: AgentErrorCode;

  constructor(code: AgentErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
