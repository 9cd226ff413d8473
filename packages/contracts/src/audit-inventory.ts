import { z } from 'zod';
import { auditLevelSchema } from './audit.ts';
import { keywordParam, pageSizeParam, positiveIntParam, stampParam } from './query-params.ts';

/*
 * The security audit's `account` (user audit) and `process` (process audit) tabs (issue 23): what
 * the agent reads from the audited root and /proc on request, and judges. Nothing is stored. Each
 * row carries its findings as a kind, a level and a raw detail (a file:line, a port, a hash scheme
 * name); the web explains each kind in the reader's language. No password hash ever leaves the
 * agent: only its judgement (`hash_kind`).
 */

export const userFindingKinds = ['uid0_duplicate', 'empty_password', 'weak_hash', 'recently_created', 'unexpected_sudoer'] as const;
export const userFindingKindSchema = z.enum(userFindingKinds);
export type UserFindingKind = z.infer<typeof userFindingKindSchema>;

export const processFindingKinds = ['exe_deleted', 'exe_in_temp', 'unpackaged', 'listening', 'web_shell'] as const;
export const processFindingKindSchema = z.enum(processFindingKinds);
export type ProcessFindingKind = z.infer<typeof processFindingKindSchema>;

/** `detail` is machine-written (a path, a port, `/etc/sudoers.d/x:3`) and never translated. */
const finding = <T extends z.ZodType>(kind: T) => z.object({ kind, level: auditLevelSchema, detail: z.string() });
export const userFindingSchema = finding(userFindingKindSchema);
export type UserFinding = z.infer<typeof userFindingSchema>;
export const processFindingSchema = finding(processFindingKindSchema);
export type ProcessFinding = z.infer<typeof processFindingSchema>;

/**
 * normal; password_locked: the shadow hash starts with `!` or `*` (a key may still log in);
 * expired: the shadow expiry date has passed; no_login: the shell is nologin/false (a service account).
 */
export const userStatuses = ['normal', 'password_locked', 'expired', 'no_login'] as const;
export const userStatusSchema = z.enum(userStatuses);
export type UserStatus = z.infer<typeof userStatusSchema>;

/** The password scheme read from shadow, never the hash: `none` is `*` (never set), `locked` a `!` prefix. */
export const hashKinds = ['yescrypt', 'gost_yescrypt', 'scrypt', 'bcrypt', 'sha512', 'sha256', 'md5', 'des', 'nthash', 'empty', 'locked', 'none', 'unknown'] as const;
export const hashKindSchema = z.enum(hashKinds);
export type HashKind = z.infer<typeof hashKindSchema>;

/**
 * Remote (SSH) login: allowed (by at least one method), denied (by the named sshd rule or by
 * PermitRootLogin), no_credential (allowed by the rules but no usable key or password), no_shell
 * (a nologin shell), no_sshd (sshd is not installed).
 */
export const sshAccessStates = ['allowed', 'denied', 'no_credential', 'no_shell', 'no_sshd'] as const;
export const sshAccessSchema = z.enum(sshAccessStates);
export type SshAccess = z.infer<typeof sshAccessSchema>;
export const sshMethods = ['key', 'password'] as const;

export const auditUserSchema = z.object({
  name: z.string(),
  uid: z.number().int(),
  gid: z.number().int(),
  /** Primary group name (the gid when no group has it). */
  group: z.string(),
  /** Supplementary groups. */
  groups: z.array(z.string()),
  status: userStatusSchema,
  hash_kind: hashKindSchema,
  /** The GECOS field. */
  description: z.string(),
  home: z.string(),
  shell: z.string(),
  /** Epoch ms; null with known=false when no login record could be read (no lastlog/last, a fixture root). */
  last_login: z.object({ at: z.number().nullable(), from: z.string().nullable(), known: z.boolean() }),
  /** Epoch ms: the earliest of the home directory's birth time and shadow's last-change day; null when neither exists. */
  created_at: z.number().nullable(),
  /** May run commands as root (uid 0, the sudo/admin/wheel groups, or a sudoers rule). */
  sudo: z.boolean(),
  remote: z.object({
    ssh: sshAccessSchema,
    methods: z.array(z.enum(sshMethods)),
    /** The sshd rule that decided (`DenyUsers bob`, `PermitRootLogin no`), raw; null when none did. */
    rule: z.string().nullable(),
  }),
  findings: z.array(userFindingSchema),
});
export type AuditUser = z.infer<typeof auditUserSchema>;

export const listeningSocketSchema = z.object({ protocol: z.enum(['tcp', 'tcp6', 'udp', 'udp6']), address: z.string(), port: z.number().int() });
export type ProcListeningSocket = z.infer<typeof listeningSocketSchema>;

export const auditProcessSchema = z.object({
  pid: z.number().int(),
  name: z.string(),
  user: z.string(),
  uid: z.number().int(),
  /** The executable; null when it cannot be read. `deleted` when the kernel marks it ` (deleted)`. */
  path: z.string().nullable(),
  deleted: z.boolean(),
  cmdline: z.string(),
  /** Epoch ms, from /proc/<pid>/stat's start time and the boot time. */
  start_time: z.number(),
  parent: z.object({ pid: z.number().int(), name: z.string() }).nullable(),
  /** Mapped shared libraries; in the list at most `listedModules`, all of them in `audit.processes.get`. */
  modules: z.array(z.string()),
  modules_total: z.number().int(),
  listening: z.array(listeningSocketSchema),
  /** Whether a Debian package ships the executable; null when the root has no dpkg file lists. */
  packaged: z.boolean().nullable(),
  findings: z.array(processFindingSchema),
});
export type AuditProcess = z.infer<typeof auditProcessSchema>;

/** How many modules a process carries in the list; the detail call has them all. */
export const listedModules = 20;

/** `keyword` matches a name, user, path or command line (case-insensitive), or a pid / uid exactly. */
const page = { offset: z.number().int().min(0), limit: z.number().int().min(1).max(200), findings_only: z.boolean(), keyword: z.string().max(100).optional() };
const levelCounts = z.object({ hint: z.number().int(), warning: z.number().int(), danger: z.number().int() });

export const auditInventoryAgentParams = {
  'audit.users.list': z.object(page).strict(),
  'audit.processes.list': z.object(page).strict(),
  'audit.processes.get': z.object({ pid: z.number().int().positive() }).strict(),
} as const;

/** `available` false: this agent has no audit root (a test agent) and reads nothing. Counts are over all rows. */
export const auditInventoryAgentResults = {
  'audit.users.list': z.object({ available: z.boolean(), total: z.number().int(), findings: levelCounts, list: z.array(auditUserSchema) }),
  'audit.processes.list': z.object({ available: z.boolean(), total: z.number().int(), findings: levelCounts, list: z.array(auditProcessSchema) }),
  /** null: no such process (it ended). */
  'audit.processes.get': auditProcessSchema.nullable(),
} as const;

/* Console calls (`GET /magapi/audit/account/list`, `/audit/process/list`, `/audit/process/detail`). */
const findingsOnlyParam = z.enum(['0', '1'], { message: 'bad_request' }).optional();
export const auditInventoryQuerySchema = z
  .object({ findings_only: findingsOnlyParam, keyword: keywordParam, page: positiveIntParam('bad_request').optional(), size: pageSizeParam, ...stampParam })
  .strict();
export const auditProcessDetailQuerySchema = z.object({ pid: positiveIntParam('audit_process_pid_invalid'), ...stampParam }).strict();
