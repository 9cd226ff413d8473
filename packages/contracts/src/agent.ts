import { z } from 'zod';
import { hostInfoSchema, netRatesSchema } from './host.ts';
import { moduleFlagsSchema, moduleKeySchema } from './modules.ts';
import { eventInputSchema, eventPageSchema, eventQuerySchema, eventRecordSchema, eventStoreStatsSchema } from './events.ts';
import { noticeInputSchema, noticeRecordSchema, noticeTargetSchema } from './notices.ts';
import { photoInputSchema, photoPageSchema, photoQuerySchema, photoRecordSchema } from './photos.ts';
import { backupRuleViewSchema, backupRulesInputSchema, logSettingsSchema } from './log-settings.ts';
import { firewallAgentParams, firewallAgentResults } from './firewall-api.ts';
import { systemBasicAgentParams, systemBasicAgentResults } from './system-basic.ts';
import { commonAreasAgentParams, commonAreasAgentResults } from './common-areas.ts';
import { configBackupAgentParams, configBackupAgentResults } from './config-backup.ts';
import { websiteAgentParams, websiteAgentResults } from './website-agent.ts';
import { tamperAgentParams, tamperAgentResults } from './tamper-api.ts';
import { accountAgentParams, accountAgentResults } from './account-api.ts';
import { remoteAgentParams, remoteAgentResults } from './remote-api.ts';
import { processAgentParams, processAgentResults } from './process-api.ts';
import { trojanAgentParams, trojanAgentResults } from './trojan-api.ts';
import { cloudAgentParams, cloudAgentResults } from './cloud-api.ts';
import { auditAgentParams, auditAgentResults } from './audit-api.ts';
import { auditInventoryAgentParams, auditInventoryAgentResults } from './audit-inventory.ts';
import { auditPatchAgentParams, auditPatchAgentResults } from './audit-patch.ts';
import { auditSnapshotAgentParams, auditSnapshotAgentResults } from './audit-snapshot.ts';
import { dynamicAgentParams, dynamicAgentResults } from './dynamic.ts';
import { performanceAgentParams, performanceAgentResults } from './home-wizard.ts';
import { homeUpdateAgentParams, homeUpdateAgentResults } from './home-update.ts';

/**
 * Calls on the agent's local socket. One JSON object per line each way:
 *   request  {id, method, params}
 *   response {id, ok: true, result} | {id, ok: false, error: {code, message}}
 * The console validates before sending and the agent validates again on receipt.
 * Each method is one row below: its params and its result.
 */
const none = z.object({}).strict();
const byId = z.object({ id: z.number().int().positive() }).strict();

export const agentParamSchemas = {
  'host.info': none,
  'host.rates': none,
  'module.list': none,
  'module.switch': z.object({ modules: z.array(moduleKeySchema).min(1), status: z.union([z.literal(0), z.literal(1)]) }).strict(),
  'software.restart': none,
  'server.reboot': none,
  // The event store (events, notices, request snapshots) and its settings.
  'events.append': z.object({ events: z.array(eventInputSchema).min(1).max(1000) }).strict(),
  'events.query': eventQuerySchema,
  'events.get': byId,
  'events.stats': none,
  'notices.raise': noticeInputSchema,
  'notices.list': z.object({ offset: z.number().int().min(0), limit: z.number().int().min(1).max(200) }).strict(),
  'notices.get': z.object({ id: z.number().int().positive(), mark_read: z.boolean() }).strict(),
  'notices.read': z.object({ target: noticeTargetSchema }).strict(),
  'notices.delete': z.object({ target: noticeTargetSchema }).strict(),
  'notices.unread': none,
  'photos.append': z.object({ photos: z.array(photoInputSchema).min(1).max(200) }).strict(),
  'photos.query': photoQuerySchema,
  'photos.get': byId,
  'photos.clear': none,
  'logs.settings.get': none,
  'logs.settings.set': z.object({ settings: logSettingsSchema }).strict(),
  'logs.backup.get': none,
  'logs.backup.set': backupRulesInputSchema,
  'logs.backup.run': none,
  // The host firewall and the super whitelist (see firewall-api.ts).
  ...firewallAgentParams,
  ...systemBasicAgentParams,
  ...commonAreasAgentParams,
  ...configBackupAgentParams,
  ...websiteAgentParams,
  ...tamperAgentParams,
  ...accountAgentParams,
  ...processAgentParams,
  ...trojanAgentParams,
  ...cloudAgentParams,
  ...remoteAgentParams,
  ...auditAgentParams,
  ...auditInventoryAgentParams,
  ...auditPatchAgentParams,
  ...auditSnapshotAgentParams,
  ...dynamicAgentParams,
  ...performanceAgentParams,
  ...homeUpdateAgentParams,
} as const;

export type AgentMethod = keyof typeof agentParamSchemas;
export type AgentParams<M extends AgentMethod> = z.input<(typeof agentParamSchemas)[M]>;
/** Params as the agent's handlers see them: validated, defaults filled. */
export type AgentParsedParams<M extends AgentMethod> = z.output<(typeof agentParamSchemas)[M]>;
export type AgentRequest = { [M in AgentMethod]: { id: number; method: M; params: AgentParams<M> } }[AgentMethod];

const requestIdSchema = z.number().int().nonnegative();
export const agentRequestSchema = z.discriminatedUnion(
  'method',
  Object.entries(agentParamSchemas).map(([method, params]) => z.object({ id: requestIdSchema, method: z.literal(method), params })) as unknown as [
    z.ZodObject<{ id: typeof requestIdSchema; method: z.ZodLiteral<string>; params: z.ZodType }>,
  ],
) as unknown as z.ZodType<AgentRequest>;

const noticeListSchema = z.object({ count: z.number().int(), unread: z.number().int(), list: z.array(noticeRecordSchema) });
const changedSchema = z.object({ changed: z.number().int() });
const backupRulesViewSchema = z.object({ rules: z.array(backupRuleViewSchema) });

export const agentResultSchemas = {
  'host.info': hostInfoSchema,
  'host.rates': netRatesSchema,
  'module.list': moduleFlagsSchema,
  'module.switch': moduleFlagsSchema,
  'software.restart': z.object({ scheduled: z.boolean() }),
  'server.reboot': z.object({ scheduled: z.boolean() }),
  'events.append': z.object({ accepted: z.number().int() }),
  'events.query': eventPageSchema,
  'events.get': eventRecordSchema.nullable(),
  'events.stats': eventStoreStatsSchema,
  'notices.raise': z.object({ id: z.number().int().nullable() }),
  'notices.list': noticeListSchema,
  'notices.get': noticeRecordSchema.nullable(),
  'notices.read': changedSchema,
  'notices.delete': changedSchema,
  'notices.unread': z.object({ unread: z.number().int() }),
  'photos.append': z.object({ accepted: z.number().int() }),
  'photos.query': photoPageSchema,
  'photos.get': photoRecordSchema.nullable(),
  'photos.clear': z.object({ removed: z.number().int() }),
  'logs.settings.get': logSettingsSchema,
  'logs.settings.set': logSettingsSchema,
  'logs.backup.get': backupRulesViewSchema,
  'logs.backup.set': backupRulesViewSchema,
  'logs.backup.run': z.object({
    results: z.array(z.object({ id: z.number().int(), ok: z.boolean(), file: z.string(), error: z.string() })),
  }),
  ...firewallAgentResults,
  ...systemBasicAgentResults,
  ...commonAreasAgentResults,
  ...configBackupAgentResults,
  ...websiteAgentResults,
  ...tamperAgentResults,
  ...accountAgentResults,
  ...processAgentResults,
  ...trojanAgentResults,
  ...cloudAgentResults,
  ...remoteAgentResults,
  ...auditAgentResults,
  ...auditInventoryAgentResults,
  ...auditPatchAgentResults,
  ...auditSnapshotAgentResults,
  ...dynamicAgentResults,
  ...performanceAgentResults,
  ...homeUpdateAgentResults,
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
export const agentMaxLineBytes = 8 * 1024 * 1024;
