import { z } from 'zod';
import {
  auditCategorySchema,
  auditEvidenceSchema,
  auditLevelSchema,
  auditLevels,
  auditOutcomeSchema,
  auditOutcomes,
  localizedTextSchema,
  reinforceEffectSchema,
  reinforceItemResultSchema,
  reinforceRequestSchema,
} from './audit.ts';
import { pageSizeParam, positiveIntParam, stampParam } from './query-params.ts';

/*
 * Agent calls and console bodies of the security audit's `system` and `system_reinforce` tabs.
 * The agent owns the runs (DESIGN.md: the agent owns audits): it starts one at a time, keeps the
 * last 20 in `<state>/audit.db` with their results, and applies and reverts reinforcement with the
 * engine's journal in its state dir. Readings:
 * - The spec's button states (start, auditing, finished, again) are the web's reading of `status`:
 *   no run yet → start; a run in progress → auditing; the latest run finished → finished, and the
 *   button says "again". A run the agent was stopped in the middle of is `interrupted`.
 * - Progress: gathering the facts is the whole of a run's time (find, dpkg --verify, apt-get -s);
 *   judging the 126 checks takes milliseconds. `phase` says which; `done / total` counts checks,
 *   `category` is the current check's area.
 * - Reinforcement runs in the background like an audit (the spec: it can take 30+ minutes); status
 *   reports it item by item. Applying while an audit or another apply runs, or starting an audit
 *   during an apply, is refused with the spec's "execution in progress, wait".
 * - Refusals are message keys (`refused`); an item's reason is `{key, values}` of auditMessages,
 *   shown in the reader's language.
 */

/** Who asked, for the agent's event log. */
const account = z.string().max(64).default('');
const checkIdSchema = z.string().min(1).max(100).regex(/^[A-Za-z0-9_.-]+$/, 'audit_unknown_check');

export const auditRunStatuses = ['running', 'finished', 'interrupted', 'failed'] as const;
export const auditRunStatusSchema = z.enum(auditRunStatuses);
export type AuditRunStatus = z.infer<typeof auditRunStatusSchema>;

const levelCounts = z.object({ hint: z.number().int(), warning: z.number().int(), danger: z.number().int() });
const outcomeCounts = z.object({ pass: z.number().int(), fail: z.number().int(), not_applicable: z.number().int(), error: z.number().int() });

/** One run as the history lists it. Score and counts are null until the run finishes. */
export const auditRunSchema = z.object({
  id: z.number().int(),
  status: auditRunStatusSchema,
  account: z.string(),
  started_at: z.number().int(),
  finished_at: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  score: z.number().int().nullable(),
  counts: outcomeCounts.nullable(),
  failed_by_level: levelCounts.nullable(),
  /** Why a run failed (a machine message, not translated). */
  error: z.string().nullable(),
});
export type AuditRun = z.infer<typeof auditRunSchema>;

export const auditProgressSchema = z.object({
  phase: z.enum(['facts', 'checks']),
  done: z.number().int(),
  total: z.number().int(),
  category: auditCategorySchema.nullable(),
});
export type AuditProgressView = z.infer<typeof auditProgressSchema>;

export const reinforceProgressSchema = z.object({
  running: z.boolean(),
  done: z.number().int(),
  total: z.number().int(),
  /** The items finished so far in this (or the last) apply. */
  results: z.array(reinforceItemResultSchema),
});
export type ReinforceProgress = z.infer<typeof reinforceProgressSchema>;

export const auditStatusSchema = z.object({
  /** False when this agent has no audit root (a test agent): every start is refused. */
  available: z.boolean(),
  running: z.boolean(),
  /** The run in progress, else the latest run; null before the first. */
  run: auditRunSchema.nullable(),
  progress: auditProgressSchema.nullable(),
  reinforce: reinforceProgressSchema,
});
export type AuditStatus = z.infer<typeof auditStatusSchema>;

/** A check's result with its catalogue texts in both languages. */
export const auditResultRowSchema = z.object({
  id: z.string(),
  cis_section: z.string(),
  category: auditCategorySchema,
  level: auditLevelSchema,
  outcome: auditOutcomeSchema,
  fixable: z.boolean(),
  title: localizedTextSchema,
  advice: localizedTextSchema,
  evidence: z.array(auditEvidenceSchema),
});
export type AuditResultRow = z.infer<typeof auditResultRowSchema>;

/** A reinforcement item: a fixable failed check of the latest run, or a check whose fix is applied (journaled). */
export const reinforceItemSchema = z.object({
  id: z.string(),
  category: auditCategorySchema,
  level: auditLevelSchema,
  title: localizedTextSchema,
  advice: localizedTextSchema,
  /** In the reinforcement journal: revert puts the files back. */
  applied: z.boolean(),
  applied_at: z.number().int().nullable(),
  /** What the applied fix needs to take effect (reload, reboot); from the journal, else from the last attempt. */
  effect: reinforceEffectSchema.nullable(),
  service: z.string().nullable(),
  /** The last apply or revert of this item, with its reason when it was refused or failed. */
  last: reinforceItemResultSchema.nullable(),
});
export type ReinforceItem = z.infer<typeof reinforceItemSchema>;

const resultsQuery = {
  run_id: z.number().int().positive().optional(),
  level: auditLevelSchema.optional(),
  outcome: auditOutcomeSchema.optional(),
  offset: z.number().int().min(0),
  limit: z.number().int().min(1).max(200),
};

export const auditAgentParams = {
  'audit.status': z.object({}).strict(),
  'audit.start': z.object({ account }).strict(),
  'audit.results': z.object(resultsQuery).strict(),
  'audit.history': z.object({ offset: z.number().int().min(0), limit: z.number().int().min(1).max(100) }).strict(),
  'audit.reinforce.items': z.object({}).strict(),
  'audit.reinforce.apply': z.object({ checkIds: z.array(checkIdSchema).min(1, 'audit_reinforce_nothing_selected').max(200), account }).strict(),
  /** No ids: revert every journaled item. */
  'audit.reinforce.revert': z.object({ checkIds: z.array(checkIdSchema).min(1).max(200).optional(), account }).strict(),
} as const;

/** A start's answer: `refused` is a message key when nothing started. */
export const auditStartedSchema = z.object({ started: z.boolean(), run_id: z.number().int().nullable(), refused: z.string().nullable() });
export type AuditStarted = z.infer<typeof auditStartedSchema>;

export const auditAgentResults = {
  'audit.status': auditStatusSchema,
  'audit.start': auditStartedSchema,
  'audit.results': z.object({ run: auditRunSchema.nullable(), total: z.number().int(), list: z.array(auditResultRowSchema) }),
  'audit.history': z.object({ total: z.number().int(), list: z.array(auditRunSchema) }),
  'audit.reinforce.items': z.object({ list: z.array(reinforceItemSchema) }),
  'audit.reinforce.apply': z.object({ started: z.boolean(), refused: z.string().nullable() }),
  'audit.reinforce.revert': z.object({ results: z.array(reinforceItemResultSchema), refused: z.string().nullable() }),
} as const;

/* Console calls (`/magapi/audit/...`). GET queries arrive as strings. */
const enumParam = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { message: 'bad_request' }).optional();
export const auditResultsQuerySchema = z
  .object({ run_id: positiveIntParam('bad_request').optional(), level: enumParam(auditLevels), outcome: enumParam(auditOutcomes), page: positiveIntParam('bad_request').optional(), size: pageSizeParam, ...stampParam })
  .strict();
export const auditHistoryQuerySchema = z.object({ page: positiveIntParam('bad_request').optional(), size: pageSizeParam, ...stampParam }).strict();
/** The spec's "nothing selected" message also for a missing list. */
export const reinforceApplyBodySchema = reinforceRequestSchema.extend({ checkIds: z.array(checkIdSchema, { message: 'audit_reinforce_nothing_selected' }).min(1, { message: 'audit_reinforce_nothing_selected' }).max(200, 'bad_request') }).strict();
/** `{checkIds}` reverts those items (and any applied after them on the same file); `{all: true}` every journaled item. */
export const reinforceRevertBodySchema = z
  .object({ checkIds: z.array(checkIdSchema).min(1, { message: 'audit_reinforce_nothing_selected' }).max(200, 'bad_request').optional(), all: z.literal(true, { message: 'bad_request' }).optional() })
  .strict()
  .refine((body) => (body.all === true) !== (body.checkIds !== undefined), { message: 'audit_reinforce_nothing_selected' });
