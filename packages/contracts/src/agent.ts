import { z } from 'zod';
import { hostInfoSchema, netRatesSchema } from './host.ts';
import { moduleFlagsSchema, moduleKeySchema } from './modules.ts';

/**
 * Calls on the agent's local socket. One JSON object per line each way:
 *   request  {id, method, params}
 *   response {id, ok: true, result} | {id, ok: false, error: {code, message}}
 * The console validates before sending and the agent validates again on receipt.
 */
export const agentRequestSchema = z.discriminatedUnion('method', [
  z.object({ id: z.number().int().nonnegative(), method: z.literal('host.info'), params: z.object({}).strict() }),
  z.object({ id: z.number().int().nonnegative(), method: z.literal('host.rates'), params: z.object({}).strict() }),
  z.object({ id: z.number().int().nonnegative(), method: z.literal('module.list'), params: z.object({}).strict() }),
  z.object({
    id: z.number().int().nonnegative(),
    method: z.literal('module.switch'),
    params: z.object({ modules: z.array(moduleKeySchema).min(1), status: z.union([z.literal(0), z.literal(1)]) }).strict(),
  }),
  z.object({ id: z.number().int().nonnegative(), method: z.literal('software.restart'), params: z.object({}).strict() }),
  z.object({ id: z.number().int().nonnegative(), method: z.literal('server.reboot'), params: z.object({}).strict() }),
]);
export type AgentRequest = z.infer<typeof agentRequestSchema>;
export type AgentMethod = AgentRequest['method'];
export type AgentParams<M extends AgentMethod> = Extract<AgentRequest, { method: M }>['params'];

export const agentResultSchemas = {
  'host.info': hostInfoSchema,
  'host.rates': netRatesSchema,
  'module.list': moduleFlagsSchema,
  'module.switch': moduleFlagsSchema,
  'software.restart': z.object({ scheduled: z.boolean() }),
  'server.reboot': z.object({ scheduled: z.boolean() }),
} satisfies Record<AgentMethod, z.ZodType>;
export type AgentResult<M extends AgentMethod> = z.infer<(typeof agentResultSchemas)[M]>;

export const agentErrorCodes = ['bad_request', 'unknown_method', 'failed', 'not_root'] as const;
export const agentResponseSchema = z.union([
  z.object({ id: z.number().int(), ok: z.literal(true), result: z.unknown() }),
  z.object({
    id: z.number().int(),
    ok: z.literal(false),
    error: z.object({ code: z.enum(agentErrorCodes), message: z.string() }),
  }),
]);
export type AgentResponse = z.infer<typeof agentResponseSchema>;

/** Longest line either side accepts; a longer one is refused, not buffered. */
export const agentMaxLineBytes = 64 * 1024;
