import { z } from 'zod';
import { processRuleEditSchema, processRuleInputSchema, processRuleSchema, processStatusSchema } from './process.ts';
import { keywordParam, pageSizeParam, positiveIntParam, stampParam } from './query-params.ts';

/* Agent calls and console bodies of process protection. The agent holds the rules and feeds the guard. */

const ids = z.array(z.number().int().positive()).min(1, 'process_select_items').max(10_000, 'process_select_items');
const page = { keyword: z.string().max(100).optional(), offset: z.number().int().min(0), limit: z.number().int().min(1).max(1000) };
/** Who made the change, for the event log. */
const account = z.string().max(64).default('');

export const processAgentParams = {
  'process.status': z.object({}).strict(),
  'process.rules.list': z.object(page).strict(),
  /** One rule as stored (the event log reads it before an edit to record old → new). */
  'process.rules.get': z.object({ id: z.number().int().positive() }).strict(),
  'process.rules.add': z.object({ rule: processRuleInputSchema, account }).strict(),
  'process.rules.edit': z.object({ rule: processRuleEditSchema, account }).strict(),
  'process.rules.set_enabled': z.object({ ids, enabled: z.boolean(), account }).strict(),
  'process.rules.delete': z.object({ ids, account }).strict(),
} as const;

/** A change's answer: `refused` is a message key when nothing changed. */
export const processChangeSchema = z.object({ changed: z.number().int(), ids: z.array(z.number().int()), refused: z.string().nullable() });
export type ProcessChange = z.infer<typeof processChangeSchema>;

export const processAgentResults = {
  'process.status': processStatusSchema,
  'process.rules.list': z.object({ total: z.number().int(), list: z.array(processRuleSchema) }),
  'process.rules.get': processRuleSchema.nullable(),
  'process.rules.add': processChangeSchema,
  'process.rules.edit': processChangeSchema,
  'process.rules.set_enabled': processChangeSchema,
  'process.rules.delete': processChangeSchema,
} as const;

/* Console calls (`/magapi/process/...`). GET queries arrive as strings. */
export const processListQuerySchema = z.object({ keyword: keywordParam, page: positiveIntParam('bad_request').optional(), size: pageSizeParam, ...stampParam }).strict();
export const processIdsBodySchema = z.object({ ids }).strict();
export const processSetEnabledBodySchema = z.object({ ids, enabled: z.boolean({ message: 'bad_request' }) }).strict();
export const processRuleAddBodySchema = z.object({ rule: processRuleInputSchema }).strict();
export const processRuleEditBodySchema = z.object({ rule: processRuleEditSchema }).strict();
