import { z } from 'zod';

/*
 * The security audit's `patch` tab (permission `audit_patch`): pending package updates from apt,
 * downloading and installing them, and the daily auto update. The agent owns the list, the states
 * and the settings (`<state>/audit-patch.db`); apt does the work. Readings of the spec:
 * - Level: a security origin (suite or label with "-security") is important; important with a
 *   changelog urgency of critical or emergency is emergency; the rest optional. The urgency is read
 *   from the package's own changelog, so it is known only once the .deb is downloaded (no network
 *   call for `apt-get changelog`): a security update shows important until then.
 * - Release date: the changelog's date once the .deb is downloaded, else the Date of the Release
 *   file of its origin (when the archive was published). Null when neither is known.
 * - Status: after a check every update is `waiting_update`; queued for a download or an install it
 *   is `waiting_download`; then `downloading` → `download_failed` / `download_finished`, and for an
 *   install `waiting_install` → `installing` → `install_failed` / `install_finished`.
 * - Check states (checking, finished, again) are the web's reading of `check`: `never` → the first
 *   check button; `checking`; `finished` → finished, and the button says "again".
 */

export const patchLevels = ['emergency', 'important', 'optional'] as const;
export const patchLevelSchema = z.enum(patchLevels);
export type PatchLevel = z.infer<typeof patchLevelSchema>;

export const patchStatuses = [
  'waiting_update',
  'waiting_download',
  'downloading',
  'download_failed',
  'download_finished',
  'waiting_install',
  'installing',
  'install_failed',
  'install_finished',
] as const;
export const patchStatusSchema = z.enum(patchStatuses);
export type PatchStatus = z.infer<typeof patchStatusSchema>;

/** A message key of the patch messages with its values (a failure's reason, shown in the reader's language). */
export const patchReasonSchema = z.object({ key: z.string().min(1), values: z.record(z.string(), z.string()).optional() });
export type PatchReason = z.infer<typeof patchReasonSchema>;

export const patchItemSchema = z.object({
  name: z.string(),
  arch: z.string(),
  current_version: z.string().nullable(),
  new_version: z.string(),
  /** apt's origin of the new version, "Label:Suite" (e.g. Debian-Security:12/stable-security). */
  origin: z.string(),
  level: patchLevelSchema,
  /** The changelog's urgency once known (low, medium, high, critical, emergency). */
  urgency: z.string().nullable(),
  /** The synopsis line of the package's description (as the package has it, not translated). */
  description: z.string(),
  /** Download size in bytes. */
  size: z.number().int().nonnegative(),
  installed_size_kib: z.number().int().nonnegative().nullable(),
  /** YYYY-MM-DD, see above. */
  release_date: z.string().nullable(),
  status: patchStatusSchema,
  /** 0-100 while downloading or installing (apt's status lines), else null. */
  progress: z.number().min(0).max(100).nullable(),
  reason: patchReasonSchema.nullable(),
});
export type PatchItem = z.infer<typeof patchItemSchema>;

export const patchCheckStates = ['never', 'checking', 'finished'] as const;
export const patchJobKinds = ['check', 'download', 'install'] as const;
export const patchJobKindSchema = z.enum(patchJobKinds);
export type PatchJobKind = z.infer<typeof patchJobKindSchema>;

/** "HH:MM", 24 h, the server's local time. */
export const patchClockTimeSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'audit_patch_time_invalid');

export const patchSettingsSchema = z.object({ auto_update: z.boolean(), time: patchClockTimeSchema });
export type PatchSettings = z.infer<typeof patchSettingsSchema>;

export const patchStateSchema = z.object({
  /** False when this agent has no apt to work with (test agents): every action is refused. */
  available: z.boolean(),
  /** The apt job running now (the page shows "execution in progress, wait"), else null. */
  busy: patchJobKindSchema.nullable(),
  check: z.object({
    state: z.enum(patchCheckStates),
    checked_at: z.number().int().nullable(),
    /** Why the last check failed (a reason of the patch messages). */
    error: patchReasonSchema.nullable(),
  }),
  /** The last download or install: when it ended, and its refusal or failure when it had one. */
  last_job: z
    .object({ kind: patchJobKindSchema, account: z.string(), started_at: z.number().int(), finished_at: z.number().int().nullable(), error: patchReasonSchema.nullable() })
    .nullable(),
  list: z.array(patchItemSchema),
  /** An install asked for a reboot (`/run/reboot-required`), or any installed update did: the spec's reboot suggestion. */
  reboot_required: z.boolean(),
  settings: patchSettingsSchema,
});
export type PatchState = z.infer<typeof patchStateSchema>;

/* Agent calls. No `names`: every pending update. */
const account = z.string().max(64).default('');
/** A Debian package name. */
export const patchPackageNameSchema = z.string().min(1).max(100).regex(/^[a-z0-9][a-z0-9+.-]*$/, 'audit_patch_unknown_package');
const names = z.array(patchPackageNameSchema).min(1, 'audit_patch_nothing_selected').max(2000);
const jobAnswer = z.object({ started: z.boolean(), refused: z.string().nullable() });

export const auditPatchAgentParams = {
  'audit.patch.status': z.object({}).strict(),
  'audit.patch.check': z.object({ account }).strict(),
  'audit.patch.download': z.object({ names: names.optional(), account }).strict(),
  'audit.patch.install': z.object({ names: names.optional(), account }).strict(),
  'audit.patch.settings': z.object({ settings: patchSettingsSchema, account }).strict(),
} as const;

export const auditPatchAgentResults = {
  'audit.patch.status': patchStateSchema,
  'audit.patch.check': jobAnswer,
  'audit.patch.download': jobAnswer,
  'audit.patch.install': jobAnswer,
  'audit.patch.settings': patchSettingsSchema,
} as const;

/* Console bodies (`/magapi/audit/patch/...`): `{names}` or `{all: true}`, never both or neither. */
export const patchSelectionBodySchema = z
  .object({
    names: z.array(patchPackageNameSchema, { message: 'audit_patch_nothing_selected' }).min(1, { message: 'audit_patch_nothing_selected' }).max(2000, 'bad_request').optional(),
    all: z.literal(true, { message: 'bad_request' }).optional(),
  })
  .strict()
  .refine((body) => (body.all === true) !== (body.names !== undefined), { message: 'audit_patch_nothing_selected' });
export type PatchSelectionBody = z.infer<typeof patchSelectionBodySchema>;
export const patchSettingsBodySchema = z.object({ auto_update: z.boolean({ message: 'bad_request' }), time: patchClockTimeSchema }).strict();
