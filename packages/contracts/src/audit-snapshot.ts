import { z } from 'zod';
import { auditProcessSchema, auditUserSchema } from './audit-inventory.ts';

/*
 * What the user and process tabs found when an audit run finished (issue 23): the agent saves it
 * with the run, so a run's report shows what was true then, not at export time. Only rows with a
 * finding are kept. A part that could not be read at the time is null (the report leaves it out).
 */
export const auditInventorySnapshotSchema = z.object({
  /** Epoch ms the tabs were read. */
  taken_at: z.number().int(),
  users: z.array(auditUserSchema).nullable(),
  processes: z.array(auditProcessSchema).nullable(),
});
export type AuditInventorySnapshot = z.infer<typeof auditInventorySnapshotSchema>;

export const auditSnapshotAgentParams = {
  'audit.run.inventory': z.object({ run_id: z.number().int().positive() }).strict(),
} as const;

/**
 * `found` false: no such run. `snapshot` null: the run kept none (it finished before runs saved
 * them, or it did not finish).
 */
export const auditSnapshotAgentResults = {
  'audit.run.inventory': z.object({ found: z.boolean(), snapshot: auditInventorySnapshotSchema.nullable() }),
} as const;
