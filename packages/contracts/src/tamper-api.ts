import { z } from 'zod';
import { guardStatusSchema, namingRuleEditSchema, namingRuleInputSchema, namingRuleSchema, tamperRuleEditSchema, tamperRuleInputSchema, tamperRuleSchema } from './tamper.ts';
import { keywordParam, pageSizeParam, positiveIntParam, stampParam } from './query-params.ts';

/* Agent calls and console calls of tamper protection. The agent holds the rules and drives the guard. */

const ids = z.array(z.number().int().positive()).min(1, 'tamper_select_items').max(10_000, 'tamper_select_items');
const page = { keyword: z.string().max(100).optional(), offset: z.number().int().min(0), limit: z.number().int().min(1).max(1000) };
/**
 * How many times the administrator confirmed a rule over `/` or all of `/etc` (see
 * isBroadProtectedPath). The agent refuses such a rule with `tamper_path_broad_confirm` until it is 2.
 */
const confirmations = z.number().int().min(0).max(2).default(0);
/** Who made the change, for the event log. */
const account = z.string().max(64).default('');

export const tamperAgentParams = {
  'tamper.status': z.object({}).strict(),
  'tamper.rules.list': z.object(page).strict(),
  /** One rule as stored (the event log reads it before an edit to record old → new). */
  'tamper.rules.get': z.object({ id: z.number().int().positive() }).strict(),
  'tamper.rules.add': z.object({ rules: z.array(tamperRuleInputSchema).min(1).max(100), confirmations, account }).strict(),
  'tamper.rules.edit': z.object({ rule: tamperRuleEditSchema, confirmations, account }).strict(),
  'tamper.rules.set_enabled': z.object({ ids, enabled: z.boolean(), account }).strict(),
  'tamper.rules.delete': z.object({ ids, account }).strict(),
  'tamper.names.list': z.object(page).strict(),
  'tamper.names.get': z.object({ id: z.number().int().positive() }).strict(),
  'tamper.names.add': z.object({ rule: namingRuleInputSchema, confirmations, account }).strict(),
  'tamper.names.edit': z.object({ rule: namingRuleEditSchema, confirmations, account }).strict(),
  'tamper.names.set_enabled': z.object({ ids, enabled: z.boolean(), account }).strict(),
  'tamper.names.delete': z.object({ ids, account }).strict(),
} as const;

const pageOf = <T extends z.ZodType>(row: T) => z.object({ total: z.number().int(), list: z.array(row) });

/** A change's answer: `refused` is a message key when nothing changed; `warnings` are keys too. */
export const tamperChangeSchema = z.object({
  changed: z.number().int(),
  ids: z.array(z.number().int()),
  refused: z.string().nullable(),
  warnings: z.array(z.string()),
});
export type TamperChange = z.infer<typeof tamperChangeSchema>;

export const tamperAgentResults = {
  'tamper.status': guardStatusSchema,
  'tamper.rules.list': pageOf(tamperRuleSchema),
  'tamper.rules.get': tamperRuleSchema.nullable(),
  'tamper.rules.add': tamperChangeSchema,
  'tamper.rules.edit': tamperChangeSchema,
  'tamper.rules.set_enabled': tamperChangeSchema,
  'tamper.rules.delete': tamperChangeSchema,
  'tamper.names.list': pageOf(namingRuleSchema),
  'tamper.names.get': namingRuleSchema.nullable(),
  'tamper.names.add': tamperChangeSchema,
  'tamper.names.edit': tamperChangeSchema,
  'tamper.names.set_enabled': tamperChangeSchema,
  'tamper.names.delete': tamperChangeSchema,
} as const;

/* Console calls (`/magapi/tamper/...`). GET queries arrive as strings. */

export const tamperListQuerySchema = z.object({ keyword: keywordParam, page: positiveIntParam('bad_request').optional(), size: pageSizeParam, ...stampParam }).strict();
export const tamperIdsBodySchema = z.object({ ids }).strict();
export const tamperSetEnabledBodySchema = z.object({ ids, enabled: z.boolean({ message: 'bad_request' }) }).strict();
export const tamperRulesAddBodySchema = z.object({ rules: z.array(tamperRuleInputSchema).min(1, 'bad_request').max(100, 'bad_request'), confirmations }).strict();
export const tamperRuleEditBodySchema = z.object({ rule: tamperRuleEditSchema, confirmations }).strict();
export const namingRuleAddBodySchema = z.object({ rule: namingRuleInputSchema, confirmations }).strict();
export const namingRuleEditBodySchema = z.object({ rule: namingRuleEditSchema, confirmations }).strict();
