export { AgentClient, type AgentClientOptions } from './agent-client.ts';
export { AgentCallError, AgentUnavailableError, type AgentErrorCode } from './errors.ts';
export { ResponseLines } from './response-lines.ts';
