import { z } from 'zod';

/*
 * Tamper protection: file rules (protected path, sub path, restricted process, level, denied
 * operations) and naming rules (protected directory, denied new names, malformed names).
 * The agent owns these rules; the guard enforces them in the kernel (see guard-helper.ts).
 */

/**
 * Denied operations, by the spec's flag letters: r read, x execute, d delete, c create, n rename,
 * w modify (the spec also writes a or m: the same flag), t modify time. Mode and owner changes
 * count as modify (w): the spec has no flag of their own and a user expects a "no modify" rule to
 * keep a file's permissions too.
 */
export const tamperOps = ['r', 'x', 'd', 'c', 'n', 'w', 't'] as const;
export const tamperOpSchema = z.enum(tamperOps, { message: 'tamper_ops_invalid' });
export type TamperOp = z.infer<typeof tamperOpSchema>;

/** Control characters and NUL are never part of a path or pattern a user types. */
const hasControl = (value: string): boolean => {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
};

/**
 * A protected path: absolute, no `.`/`..` components, `*` only at the right end (`/var/www/*`: the
 * tree; `/var/www/site*`: every entry of /var/www whose name starts with `site`). A path without `*`
 * protects that file, or that directory and everything below it.
 */
export function isProtectedPath(value: string): boolean {
  if (!value.startsWith('/') || value.length > 4096 || hasControl(value)) return false;
  const star = value.indexOf('*');
  if (star !== -1 && star !== value.length - 1) return false;
  const parts = value.replace(/\*$/, '').split('/').slice(1);
  return !parts.some((part, index) => part === '.' || part === '..' || (part === '' && index !== parts.length - 1 && index !== 0));
}

/**
 * A process or sub-path pattern: `*` alone is everything; otherwise `*` may stand at either end or
 * both (`*nginx`, `/usr/bin/php*`, `*php-fpm*`) and nowhere else. Process patterns match the
 * executable's full path; sub paths match below the protected path (a sub path without `/` matches
 * the entry's own name at any depth: `*.php`).
 */
export function isEdgePattern(value: string): boolean {
  if (value.length === 0 || value.length > 4096 || hasControl(value)) return false;
  if (value === '*') return true;
  const core = value.replace(/^\*/, '').replace(/\*$/, '');
  return core.length > 0 && !core.includes('*');
}

/**
 * A name pattern of a naming rule: no `/`, at most 63 bytes, `*` at either end, both ends, or once in
 * the middle (`*.php`, `tmp*`, `*shell*`, `a*.jsp`). Empty lists mean no restriction.
 */
export function isNamePattern(value: string): boolean {
  if (value.length === 0 || new TextEncoder().encode(value).length > 63 || hasControl(value) || value.includes('/')) return false;
  if (value === '*') return true;
  const stars = [...value].filter((ch) => ch === '*').length;
  if (stars === 0) return true;
  const inner = value.replace(/^\*/, '').replace(/\*$/, '');
  if (!inner.includes('*')) return inner.length > 0;
  // one star in the middle, none at the ends: prefix*suffix
  return stars === 1 && !value.startsWith('*') && !value.endsWith('*');
}

const remarkSchema = z.string({ message: 'remark_too_long' }).trim().max(200, 'remark_too_long');
export const tamperLevelSchema = z
  .number({ message: 'tamper_level_required' })
  .int('tamper_level_range')
  .min(1, 'tamper_level_range')
  .max(99, 'tamper_level_range');

export const protectedPathSchema = z
  .string({ message: 'tamper_path_required' })
  .trim()
  .min(1, 'tamper_path_required')
  .refine(isProtectedPath, 'tamper_path_invalid');
export const processPatternSchema = z
  .string({ message: 'tamper_process_required' })
  .trim()
  .min(1, 'tamper_process_required')
  .refine(isEdgePattern, 'tamper_process_invalid');
const subPathSchema = z.string({ message: 'tamper_sub_path_invalid' }).trim().refine((v) => v === '' || isEdgePattern(v), 'tamper_sub_path_invalid');
const namePatternsSchema = z.array(z.string().trim().refine(isNamePattern, 'tamper_name_pattern_invalid')).max(64, 'tamper_too_many_names');

const tamperRuleShape = {
  enabled: z.boolean().default(true),
  path: protectedPathSchema,
  /** Empty or `*`: everything below the path. */
  sub_path: subPathSchema.default('*'),
  /** The restricted process: `*` restricts every process. */
  process: processPatternSchema,
  /** Advanced rule: executables this rule never restricts (e.g. the deploy tool). */
  exempt: z.array(processPatternSchema).max(32, 'tamper_too_many_exempt').default([]),
  level: tamperLevelSchema,
  /**
   * The operations denied. Empty is an allow rule: matching accesses are let through and lower
   * levels are not consulted (how a template opens a CMS's upload folder under a protected tree).
   */
  ops: z.array(tamperOpSchema).max(tamperOps.length).default([]),
  notify: z.boolean().default(true),
  remark: remarkSchema.default(''),
};

/** `confirmations`: a rule over `/` or all of `/etc` is refused until the administrator confirmed it twice. */
export const tamperRuleInputSchema = z.object(tamperRuleShape).strict();
export const tamperRuleEditSchema = z.object({ id: z.number({ message: 'tamper_rule_not_found' }).int().positive('tamper_rule_not_found'), ...tamperRuleShape }).strict();
export type TamperRuleInput = z.input<typeof tamperRuleInputSchema>;
export type TamperRuleFields = z.output<typeof tamperRuleInputSchema>;

/**
 * What a rule does on this host right now: `active` (enforced), `path_missing` (nothing exists at the
 * protected path yet), `partial` (some of its operations cannot be denied by the running backend),
 * `off` (the rule, the module or protection is off), `not_enforced` (no backend runs).
 */
export const ruleStates = ['active', 'path_missing', 'partial', 'off', 'not_enforced'] as const;
export const ruleStateSchema = z.enum(ruleStates);
export type RuleState = z.infer<typeof ruleStateSchema>;

export const tamperRuleSchema = z.object({
  id: z.number().int(),
  enabled: z.boolean(),
  path: z.string(),
  sub_path: z.string(),
  process: z.string(),
  exempt: z.array(z.string()),
  level: z.number().int(),
  ops: z.array(tamperOpSchema),
  notify: z.boolean(),
  remark: z.string(),
  state: ruleStateSchema,
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type TamperRule = z.infer<typeof tamperRuleSchema>;

const namingRuleShape = {
  enabled: z.boolean().default(true),
  /** The directory whose new entries are checked (itself and every directory below it); no `*`. */
  dir: protectedPathSchema.refine((value) => !value.includes('*'), 'tamper_dir_no_wildcard'),
  deny_dirs: namePatternsSchema.default([]),
  deny_files: namePatternsSchema.default([]),
  /**
   * Deny malformed names: control characters, invalid UTF-8, trailing dots or spaces, and names that
   * carry a script extension before another (`a.php.jpg`, `a.php;.jpg`, `a.asp;.jpg`).
   */
  deny_malformed: z.boolean().default(true),
  notify: z.boolean().default(true),
  remark: remarkSchema.default(''),
};
export const namingRuleInputSchema = z.object(namingRuleShape).strict();
export const namingRuleEditSchema = z.object({ id: z.number({ message: 'tamper_rule_not_found' }).int().positive('tamper_rule_not_found'), ...namingRuleShape }).strict();
export type NamingRuleInput = z.input<typeof namingRuleInputSchema>;
export type NamingRuleFields = z.output<typeof namingRuleInputSchema>;
export const namingRuleSchema = z.object({
  id: z.number().int(),
  enabled: z.boolean(),
  dir: z.string(),
  deny_dirs: z.array(z.string()),
  deny_files: z.array(z.string()),
  deny_malformed: z.boolean(),
  notify: z.boolean(),
  remark: z.string(),
  state: ruleStateSchema,
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type NamingRule = z.infer<typeof namingRuleSchema>;

/** A path as the guard reads it (cleanPath): repeated slashes, `.` and `..` resolved, no trailing slash. */
function normalPath(value: string): string {
  const parts: string[] = [];
  for (const part of value.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '' && part !== '.') parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/**
 * Paths a rule may not cover without two confirmations: the root and the whole of /etc, however
 * they are written (`//etc`, `/etc/`, `/etc/*`), and a prefix that takes in /etc (`/e*`, `/etc*`).
 * Read as the guard reads a protected path (pathQuery), so no spelling skips the confirmations.
 */
export function isBroadProtectedPath(value: string): boolean {
  const trimmed = value.trim();
  // Not a protected path at all (empty, relative): refused by validation, not confirmed.
  if (!trimmed.startsWith('/')) return false;
  const bare = trimmed.replace(/\*$/, '');
  if (bare === trimmed || bare.endsWith('/')) return ['/', '/etc'].includes(normalPath(bare));
  // `dir/name*`: the entries of dir whose name starts with `name`.
  const slash = bare.lastIndexOf('/');
  return normalPath(bare.slice(0, slash + 1)) === '/' && 'etc'.startsWith(bare.slice(slash + 1));
}

/** Which backend enforces: BPF LSM in the kernel, fanotify permission events, or nothing. */
export const guardBackends = ['lsm', 'fanotify', 'none'] as const;
export const guardBackendSchema = z.enum(guardBackends);
export type GuardBackend = z.infer<typeof guardBackendSchema>;

/**
 * The guard as the home page and the tamper page show it. `causes` are locale keys under
 * `kernel_cause.` (e.g. `lsm_refused`, `helper_missing`, `helper_failed`, `not_root`) saying why
 * enforcement is degraded; `missing_ops` are operations no running backend can deny.
 */
export const guardStatusSchema = z.object({
  backend: guardBackendSchema,
  running: z.boolean(),
  kernel: z.string(),
  enforced_ops: z.array(tamperOpSchema),
  missing_ops: z.array(tamperOpSchema),
  causes: z.array(z.string()),
  /** Planner warnings (locale keys under `guard_warning.`), e.g. a rule set past the kernel's slots. */
  warnings: z.array(z.string()),
  objects: z.number().int(),
  rules: z.number().int(),
  generation: z.number().int(),
  applied_at: z.number().int(),
});
export type GuardStatus = z.infer<typeof guardStatusSchema>;
