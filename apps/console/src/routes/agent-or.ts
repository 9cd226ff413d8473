import { AgentCallError, AgentUnavailableError } from '@rampart/agent-client';
import type { FastifyRequest } from 'fastify';
import { failure } from '../http/reply.ts';

/**
 * Runs a call that needs the agent. The agent being away (or refusing) is a message the user can
 * act on, not a 500.
 */
export async function agentOr<T>(request: FastifyRequest, run: () => Promise<T>): Promise<T | ReturnType<typeof failure>> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AgentUnavailableError || error instanceof AgentCallError) {
      request.log.warn({ err: error }, 'agent call failed');
      return failure(request, 'agent_unreachable');
    }
    throw error;
  }
}
