import { z } from 'zod';

/**
 * The security audit's system checks and reinforcement (issue 23): the shapes a run produces and
 * the console will carry. The checks themselves, their texts and their fixes live in @rampart/audit.
 */

/** How much a failed check matters; the score weighs failures by it. */
export const auditLevels = ['hint', 'warning', 'danger'] as const;
export const auditLevelSchema = z.enum(auditLevels);
export type AuditLevel = z.infer<typeof auditLevelSchema>;

export const auditCategories = [
  'ssh',
  'pam',
  'accounts',
  'files',
  'kernel',
  'network',
  'services',
  'cron',
  'time',
  'logging',
  'mounts',
  'packages',
  'updates',
  'rampart',
] as const;
export const auditCategorySchema = z.enum(auditCategories);
export type AuditCategory = z.infer<typeof auditCategorySchema>;

/** The audit button's states, as the spec names them: start, auditing, finished, again. */
export const auditRunStates = ['start', 'auditing', 'finished', 'again'] as const;
export const auditRunStateSchema = z.enum(auditRunStates);
export type AuditRunState = z.infer<typeof auditRunStateSchema>;

/** The reinforcement button's states: start, in progress, finished, again. */
export const reinforceRunStates = ['start', 'in_progress', 'finished', 'again'] as const;
export const reinforceRunStateSchema = z.enum(reinforceRunStates);
export type ReinforceRunState = z.infer<typeof reinforceRunStateSchema>;

/** not_applicable: the thing checked is absent (no sshd, no cron); error: a fact could not be read. */
export const auditOutcomes = ['pass', 'fail', 'not_applicable', 'error'] as const;
export const auditOutcomeSchema = z.enum(auditOutcomes);
export type AuditOutcome = z.infer<typeof auditOutcomeSchema>;

/** Text in both languages; every user-visible string of the audit is one. */
export const localizedTextSchema = z.object({ 'zh-CN': z.string().min(1), 'en-US': z.string().min(1) });
export type LocalizedText = z.infer<typeof localizedTextSchema>;

/** What a check saw: where, the value found and the value it wanted. Values are raw, never translated. */
export const auditEvidenceSchema = z.object({
  file: z.string().optional(),
  line: z.number().int().positive().optional(),
  found: z.string().optional(),
  expected: z.string().optional(),
  /** A short machine-written note (an item of a list, a command's error); not translated. */
  note: z.string().optional(),
});
export type AuditEvidence = z.infer<typeof auditEvidenceSchema>;

/** A check as the catalogue lists it. `cisSection` is empty where no CIS Debian 12 section applies. */
export const auditCheckInfoSchema = z.object({
  id: z.string().min(1),
  cisSection: z.string(),
  category: auditCategorySchema,
  level: auditLevelSchema,
  title: localizedTextSchema,
  advice: localizedTextSchema,
  fixable: z.boolean(),
});
export type AuditCheckInfo = z.infer<typeof auditCheckInfoSchema>;

export const auditCheckResultSchema = z.object({
  id: z.string().min(1),
  category: auditCategorySchema,
  level: auditLevelSchema,
  outcome: auditOutcomeSchema,
  evidence: z.array(auditEvidenceSchema),
  /** A failed check whose fix the planner can turn into a reinforcement item. */
  fixable: z.boolean(),
});
export type AuditCheckResult = z.infer<typeof auditCheckResultSchema>;

const outcomeCountsSchema = z.object({ pass: z.number().int(), fail: z.number().int(), not_applicable: z.number().int(), error: z.number().int() });

export const auditSummarySchema = z.object({
  startedAt: z.number().int(),
  durationMs: z.number().nonnegative(),
  /** 0-100: the share of applicable checks' weight that passed (hint 1, warning 3, danger 9). */
  score: z.number().int().min(0).max(100),
  counts: outcomeCountsSchema,
  failedByLevel: z.object({ hint: z.number().int(), warning: z.number().int(), danger: z.number().int() }),
  results: z.array(auditCheckResultSchema),
});
export type AuditSummary = z.infer<typeof auditSummarySchema>;

/** What an item needs after it is applied for its change to take effect. */
export const reinforceEffects = ['none', 'reload', 'reboot'] as const;
export const reinforceEffectSchema = z.enum(reinforceEffects);
export type ReinforceEffect = z.infer<typeof reinforceEffectSchema>;

export const reinforceItemStatuses = ['applied', 'refused', 'failed', 'rolled_back', 'reverted'] as const;
export const reinforceItemStatusSchema = z.enum(reinforceItemStatuses);
export type ReinforceItemStatus = z.infer<typeof reinforceItemStatusSchema>;

/** A reason key of `auditMessages`, with the values its text needs. */
export const reinforceReasonSchema = z.object({ key: z.string().min(1), values: z.record(z.string(), z.string()).optional() });
export type ReinforceReason = z.infer<typeof reinforceReasonSchema>;

export const reinforceItemResultSchema = z.object({
  checkId: z.string().min(1),
  status: reinforceItemStatusSchema,
  effect: reinforceEffectSchema,
  /** The service to reload when effect is reload (ssh, systemd-journald, the sysctl values). */
  service: z.string().optional(),
  reason: reinforceReasonSchema.optional(),
});
export type ReinforceItemResult = z.infer<typeof reinforceItemResultSchema>;

/** Selecting nothing is refused with the spec's message. */
export const reinforceRequestSchema = z.object({
  checkIds: z.array(z.string().min(1)).min(1, { message: 'audit_reinforce_nothing_selected' }),
});
export type ReinforceRequest = z.infer<typeof reinforceRequestSchema>;

/** The audit's server messages (`audit_`): refusals, rollbacks and the spec's empty selection. */
const zh = {
  audit_reinforce_nothing_selected: '请选择需要加固的项目',
  audit_execution_in_progress: '正在执行中，请稍候',
  audit_unknown_check: '未知的检查项：{id}',
  audit_not_fixable: '该检查项不支持一键加固：{id}',
  audit_already_passing: '该检查项已通过，无需加固：{id}',
  audit_lockout_password_auth: '拒绝关闭 SSH 密码登录：没有任何可用 sudo 的账号（sudo 组成员或 uid 0）配置了 authorized_keys 公钥，关闭后管理员将无法登录',
  audit_lockout_root_login: '拒绝禁止 root 远程登录：除 root 外没有其他有登录 shell、且有密码或公钥的 sudo 账号，禁止后管理员将无法登录',
  audit_fix_shadowed: '加固不会生效：{file} 第 {line} 行先设置了 {key}，请先修改该处',
  audit_sshd_test_failed: 'sshd -t 校验新配置失败，已回滚：{error}',
  audit_unsafe_path: '拒绝修改根目录之外或经由符号链接的路径：{path}',
  audit_apply_failed: '加固失败：{error}',
  audit_nothing_to_revert: '没有可回滚的加固记录：{id}',
  audit_revert_changed_since: '文件在加固后又被修改，已按加固前的内容恢复：{path}',
} as const;

const en: Record<keyof typeof zh, string> = {
  audit_reinforce_nothing_selected: 'Select the items to reinforce',
  audit_execution_in_progress: 'Execution in progress, please wait',
  audit_unknown_check: 'Unknown check: {id}',
  audit_not_fixable: 'This check has no automatic fix: {id}',
  audit_already_passing: 'This check already passes and needs no fix: {id}',
  audit_lockout_password_auth: 'Refused to turn SSH password login off: no sudo-capable account (member of sudo or uid 0) has an authorized_keys file, so the administrator would be locked out',
  audit_lockout_root_login: 'Refused to turn root SSH login off: there is no other sudo account with a login shell and a password or key, so the administrator would be locked out',
  audit_fix_shadowed: 'The fix would not take effect: {file} line {line} sets {key} first; change it there',
  audit_sshd_test_failed: 'sshd -t rejected the new configuration; rolled back: {error}',
  audit_unsafe_path: 'Refused to change a path outside the root or through a symbolic link: {path}',
  audit_apply_failed: 'Reinforcement failed: {error}',
  audit_nothing_to_revert: 'Nothing recorded to revert: {id}',
  audit_revert_changed_since: 'The file changed after reinforcement; restored what it held before: {path}',
} as const;

export const auditMessages = { zh, en } as const;
export type AuditMessageKey = keyof typeof zh;
