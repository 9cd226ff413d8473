import { z } from 'zod';
import { guardBackendSchema, ruleStateSchema } from './tamper.ts';

/*
 * User protection (`/account`, issue 21). Readings chosen, each enforced by the guard's plan through
 * rules `account:<file>` (apps/agent/src/account):
 * - "Lock the system account files against any writer": /etc/passwd, shadow, group and gshadow are
 *   denied write, delete, rename and time changes for every process, Rampart's own included.
 * - "Forbid creating new system users": the same lock. useradd writes `passwd+` and renames it over
 *   /etc/passwd; BPF LSM denies the rename over the protected inode. fanotify can deny only the
 *   write-open of the file itself, so on that backend the status says user creation is NOT stopped.
 * - "Lock chosen user groups": the chosen groups' membership cannot change. The guard locks files,
 *   not lines, so choosing any group locks /etc/group and /etc/gshadow as a whole (adding or
 *   changing every group is refused too); the page says so.
 * - "Change the system administrator name" on Linux: the privileged accounts (uid 0, members of
 *   sudo / wheel / admin) are shown, and direct root SSH login can be disabled by a drop-in
 *   (`PermitRootLogin no`), only when another sudo account can sign in.
 */

export const accountFiles = ['passwd', 'shadow', 'group', 'gshadow'] as const;
export type AccountFile = (typeof accountFiles)[number];

/** Group names as Debian's useradd accepts them (and a few more: no `:` or whitespace). */
export const groupNameSchema = z.string().min(1, 'account_group_invalid').max(32, 'account_group_invalid').regex(/^[A-Za-z0-9_.][A-Za-z0-9_.-]*\$?$/, 'account_group_invalid');

export const accountSettingsSchema = z
  .object({
    /** Lock all four account files (and so forbid creating users). */
    lock_files: z.boolean({ message: 'bad_request' }),
    /** Groups whose membership must not change: locks /etc/group and /etc/gshadow. */
    locked_groups: z.array(groupNameSchema).max(100, 'account_group_invalid'),
  })
  .strict();
export type AccountSettings = z.infer<typeof accountSettingsSchema>;

export const accountFileStatusSchema = z.object({
  file: z.enum(accountFiles),
  path: z.string(),
  locked: z.boolean(),
  state: ruleStateSchema,
});

export const accountStatusSchema = z.object({
  /** The module switch. */
  enabled: z.boolean(),
  settings: accountSettingsSchema,
  /** While unlocked for a while: when the lock comes back (ms since the epoch), else null. */
  unlocked_until: z.number().int().nullable(),
  files: z.array(accountFileStatusSchema),
  /** The guard's backend, as tamper's status names it. */
  backend: guardBackendSchema,
  /** Whether creating users (write-and-rename) is denied right now. */
  user_create_blocked: z.boolean(),
  /** Message keys that explain what is not enforced (`account_fanotify_rename`, ...). */
  notes: z.array(z.string()),
});
export type AccountStatus = z.infer<typeof accountStatusSchema>;

export const privilegedReasonSchema = z.enum(['uid0', 'sudo', 'wheel', 'admin']);
export const privilegedAccountSchema = z.object({
  name: z.string(),
  uid: z.number().int(),
  shell: z.string(),
  reasons: z.array(privilegedReasonSchema),
  /** How it can sign in: a usable password hash, authorized keys, both, or neither. */
  password: z.boolean(),
  keys: z.boolean(),
});
export type PrivilegedAccount = z.infer<typeof privilegedAccountSchema>;

export const rootLoginSchema = z.object({
  /** sshd's effective PermitRootLogin (`sshd -T`), or null when sshd could not be asked. */
  permit: z.string().nullable(),
  /** Rampart's drop-in is in place. */
  dropin: z.boolean(),
  dropin_path: z.string(),
  /** Accounts other than root that are in a sudo group and can sign in. */
  fallback_accounts: z.array(z.string()),
});

export const accountPrivilegedSchema = z.object({
  accounts: z.array(privilegedAccountSchema),
  /** Every group name, for the group chooser. */
  groups: z.array(z.string()),
  root_login: rootLoginSchema,
});
export type AccountPrivileged = z.infer<typeof accountPrivilegedSchema>;

/** A change's answer: `refused` is a message key when nothing changed; `reason` fills its `{reason}` (sshd's words). */
export const accountChangeSchema = z.object({ changed: z.boolean(), refused: z.string().nullable(), reason: z.string().optional() });
export type AccountChange = z.infer<typeof accountChangeSchema>;
