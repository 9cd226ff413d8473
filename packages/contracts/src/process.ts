import { z } from 'zod';
import { addressEntrySchema, ruleAreaSchema } from './firewall.ts';
import { processPatternSchema, protectedPathSchema, ruleStateSchema, tamperLevelSchema, tamperOpSchema, tamperOps } from './tamper.ts';

/*
 * Process protection: rules by executable (exact path or `*` at either end, as tamper's process
 * patterns). A rule can deny the executable's start, deny its TCP and/or UDP traffic except to
 * allowed peers, and carry file access rules that apply to that executable only. The agent owns the
 * rules; the guard enforces them (exec and file rules through the guard's slots, network through
 * the helper's cgroup programs).
 */

const remarkSchema = z.string({ message: 'remark_too_long' }).trim().max(200, 'remark_too_long');

export const processActions = ['allow', 'deny'] as const;
export const processActionSchema = z.enum(processActions, { message: 'process_action_invalid' });
export type ProcessAction = z.infer<typeof processActionSchema>;

/** One file access rule of a process rule: a protected path, the operations, a level and what to do. */
export const processFileRuleSchema = z
  .object({
    path: protectedPathSchema,
    /** Operations the rule is about; an allow rule lets them (or, when empty, everything) through. */
    ops: z.array(tamperOpSchema).max(tamperOps.length).default([]),
    level: tamperLevelSchema,
    action: processActionSchema,
  })
  .strict()
  .refine((rule) => rule.action === 'allow' || rule.ops.length > 0, { message: 'process_file_ops_required', path: ['ops'] });
export type ProcessFileRule = z.output<typeof processFileRuleSchema>;

const processRuleShape = {
  enabled: z.boolean().default(true),
  /** The executable: exact path, or `*` at either end. */
  process: processPatternSchema,
  deny_start: z.boolean().default(false),
  deny_tcp: z.boolean().default(false),
  deny_udp: z.boolean().default(false),
  /** Peers still reachable when TCP or UDP is denied: addresses (as the firewall's) and areas. */
  allow_ips: z.array(addressEntrySchema).max(1000, 'fw_too_many_addresses').default([]),
  allow_areas: z.array(ruleAreaSchema).max(300, 'fw_too_many_areas').default([]),
  files: z.array(processFileRuleSchema).max(64, 'process_too_many_files').default([]),
  /** Executables the rule never restricts (the spec's "whitelist"; read as tamper's exempt list). */
  whitelist: z.array(processPatternSchema).max(32, 'tamper_too_many_exempt').default([]),
  notify: z.boolean().default(true),
  remark: remarkSchema.default(''),
};

const needsAction = (rule: { deny_start: boolean; deny_tcp: boolean; deny_udp: boolean; files: unknown[] }) => rule.deny_start || rule.deny_tcp || rule.deny_udp || rule.files.length > 0;

export const processRuleInputSchema = z.object(processRuleShape).strict().refine(needsAction, { message: 'process_rule_empty' });
export const processRuleEditSchema = z
  .object({ id: z.number({ message: 'process_rule_not_found' }).int().positive('process_rule_not_found'), ...processRuleShape })
  .strict()
  .refine(needsAction, { message: 'process_rule_empty' });
export type ProcessRuleInput = z.input<typeof processRuleInputSchema>;
export type ProcessRuleFields = z.output<typeof processRuleInputSchema>;

export const processRuleSchema = z.object({
  id: z.number().int(),
  enabled: z.boolean(),
  process: z.string(),
  deny_start: z.boolean(),
  deny_tcp: z.boolean(),
  deny_udp: z.boolean(),
  allow_ips: z.array(z.string()),
  allow_areas: z.array(z.string()),
  files: z.array(z.object({ path: z.string(), ops: z.array(tamperOpSchema), level: z.number().int(), action: processActionSchema })),
  whitelist: z.array(z.string()),
  notify: z.boolean(),
  remark: z.string(),
  /** The start and file part's state in the guard. */
  state: ruleStateSchema,
  /** The network part's state (`off` when the rule denies no traffic). */
  net_state: ruleStateSchema,
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type ProcessRule = z.infer<typeof processRuleSchema>;

export const processStatusSchema = z.object({
  enabled: z.boolean(),
  backend: z.enum(['lsm', 'fanotify', 'none']),
  /** Whether the helper's network programs run; `net_cause` says why not (a locale key). */
  net: z.boolean(),
  net_cause: z.string().nullable(),
  rules: z.number().int(),
});
export type ProcessStatus = z.infer<typeof processStatusSchema>;

