export { AgentClient, type AgentClientOptions } from './agent-client.ts';
export { AgentCallError, AgentUnavailableError, type AgentErrorCode } from './errors.ts';
