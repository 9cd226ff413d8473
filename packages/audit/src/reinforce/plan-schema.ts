import { reinforceEffectSchema } from '@rampart/contracts';
import { z } from 'zod';

/**
 * The shapes of reinforcement: a plan item (what to write, how to check it, how to make it take
 * effect) and the journal that lets every applied item be reverted exactly, across restarts.
 */
export const commandSchema = z.object({ command: z.string().min(1), args: z.array(z.string()) });
export type Command = z.infer<typeof commandSchema>;

export const planStepSchema = z.discriminatedUnion('kind', [
  /** Create or replace a file; `expectSha256` refuses to replace a file that changed since the audit read it. */
  z.object({ kind: z.literal('write'), path: z.string().startsWith('/'), content: z.string(), mode: z.number().int(), expectSha256: z.string().optional() }),
  z.object({ kind: z.literal('attributes'), path: z.string().startsWith('/'), mode: z.number().int().optional(), uid: z.number().int().optional(), gid: z.number().int().optional() }),
]);
export type PlanStep = z.infer<typeof planStepSchema>;

export const plannedItemSchema = z.object({
  checkId: z.string().min(1),
  steps: z.array(planStepSchema).min(1),
  /** Run after the steps; a failure rolls the item back (sshd -t). */
  validate: z.array(commandSchema),
  /** Run once per run after every item, deduplicated (reload ssh, sysctl -p file). */
  activate: z.array(commandSchema),
  /** Run after a revert to undo the live effect (reload ssh again, sysctl -w the old value). */
  deactivate: z.array(commandSchema),
  effect: reinforceEffectSchema,
  service: z.string().optional(),
});
export type PlannedItem = z.infer<typeof plannedItemSchema>;

const originalSchema = z.object({ mode: z.number().int(), uid: z.number().int(), gid: z.number().int(), mtimeMs: z.number() });

export const journalChangeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('created_file'), path: z.string() }),
  z.object({ kind: z.literal('created_dir'), path: z.string() }),
  z.object({ kind: z.literal('replaced_file'), path: z.string(), original: originalSchema.extend({ base64: z.string() }) }),
  z.object({ kind: z.literal('attributes'), path: z.string(), original: originalSchema }),
]);
export type JournalChange = z.infer<typeof journalChangeSchema>;

export const journalEntrySchema = z.object({
  checkId: z.string(),
  /** `applying` means a crash came mid-item: what is recorded is still reverted exactly. */
  status: z.enum(['applying', 'applied']),
  appliedAt: z.number().int(),
  changes: z.array(journalChangeSchema),
  deactivate: z.array(commandSchema),
  effect: reinforceEffectSchema,
  service: z.string().optional(),
});
export type JournalEntry = z.infer<typeof journalEntrySchema>;

export const journalSchema = z.object({ version: z.literal(1), entries: z.array(journalEntrySchema) });
export type Journal = z.infer<typeof journalSchema>;
