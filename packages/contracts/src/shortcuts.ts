// Schemas of the shortcut management: links that run named operations.
// The design (random link tokens, confirmation page, dry-run test) is written down in
// apps/console/src/routes/system-shortcut.ts.
import { z } from 'zod';
import { isIpAddress } from './validators.ts';

/** What a link can do. Each one is something an administrator may need from a phone after a notification. */
export const shortcutOperations = ['pause_protection', 'resume_protection', 'unblock_ip', 'restart_panel'] as const;
export type ShortcutOperation = (typeof shortcutOperations)[number];

/** The spec's temporary-disable default (minutes). */
export const shortcutDefaultPauseMinutes = 720;
/** Most shortcuts one console keeps; they are few, named and hand-made. */
export const maxShortcuts = 50;
/** Most runs a limited link allows (0 = no limit). */
export const maxShortcutUses = 1000;
/** The public page of a link, outside /magapi: `/shortcut/<token>`. */
export const shortcutLinkPrefix = '/shortcut/';
/** Link tokens: 32 random bytes, base64url. */
export const shortcutTokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** One address (the interception list holds single addresses, not networks). */
const ip = z.string({ message: 'sc_ip_invalid' }).trim().max(45, 'sc_ip_invalid').refine(isIpAddress, 'sc_ip_invalid');

const minutes = z
  .number({ message: 'sc_minutes_range' })
  .int('sc_minutes_range')
  .min(1, 'sc_minutes_range')
  .max(525_600, 'sc_minutes_range');

/** The operation and its parameters. */
export const shortcutActionSchema = z.discriminatedUnion(
  'operation',
  [
    z.object({ operation: z.literal('pause_protection'), minutes }).strict(),
    z.object({ operation: z.literal('resume_protection') }).strict(),
    z.object({ operation: z.literal('unblock_ip'), ip }).strict(),
    z.object({ operation: z.literal('restart_panel') }).strict(),
  ],
  { error: 'sc_operation_invalid' },
);
export type ShortcutAction = z.infer<typeof shortcutActionSchema>;

const id = z.number({ message: 'sc_not_found' }).int('sc_not_found').positive('sc_not_found');

/** Add (no id) or edit (id) a shortcut. Editing never changes the link; re-issuing does. */
export const shortcutInputSchema = z
  .object({
    id: id.optional(),
    name: z.string({ message: 'sc_name_required' }).trim().min(1, 'sc_name_required').max(64, 'sc_name_too_long'),
    action: shortcutActionSchema,
    enabled: z.boolean({ message: 'bad_request' }),
    /** End of validity in ms; null = no end. */
    expires_at: z.number({ message: 'sc_expiry_invalid' }).int('sc_expiry_invalid').positive('sc_expiry_invalid').nullable(),
    /** Runs allowed; 0 = no limit. */
    max_uses: z.number({ message: 'sc_max_uses_range' }).int('sc_max_uses_range').min(0, 'sc_max_uses_range').max(maxShortcutUses, 'sc_max_uses_range'),
  })
  .strict();
export type ShortcutInput = z.infer<typeof shortcutInputSchema>;

/** active: the link works; otherwise its page answers the same plain 404 as an unknown link. */
export const shortcutStatuses = ['active', 'disabled', 'expired', 'used_up'] as const;
export type ShortcutStatus = (typeof shortcutStatuses)[number];

/** A shortcut as the console lists it. The link token is never part of it. */
export const shortcutViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  action: shortcutActionSchema,
  enabled: z.boolean(),
  expires_at: z.number().int().nullable(),
  max_uses: z.number().int(),
  uses: z.number().int(),
  last_used_at: z.number().int().nullable(),
  last_used_ip: z.string(),
  created_at: z.number().int(),
  created_by: z.string(),
  status: z.enum(shortcutStatuses),
});
export type ShortcutView = z.infer<typeof shortcutViewSchema>;

export const shortcutListSchema = z.object({ list: z.array(shortcutViewSchema), max: z.number().int() });
export type ShortcutList = z.infer<typeof shortcutListSchema>;

/** After an add or a re-issue: the link's path (`/shortcut/<token>`), shown once; null after an edit. */
export const shortcutSavedSchema = z.object({ shortcut: shortcutViewSchema, link: z.string().nullable() });
export type ShortcutSaved = z.infer<typeof shortcutSavedSchema>;

export const shortcutIdBodySchema = z.object({ id }).strict();

/** The console's address as the browser sees it (`https://host:port`), to build the link that is sent. */
const origin = z
  .string({ message: 'sc_origin_invalid' })
  .max(300, 'sc_origin_invalid')
  .regex(/^https?:\/\/[A-Za-z0-9.\-[\]:]+$/, 'sc_origin_invalid');
/** Sends a new link through the notification service (the old link stops working once one is sent). */
export const shortcutSendBodySchema = z.object({ id, origin }).strict();
export const shortcutDeleteBodySchema = z.object({ ids: z.array(id).min(1, 'sc_not_found').max(maxShortcuts, 'sc_not_found') }).strict();

/** How many of the notification methods took the link. */
export const shortcutSendResultSchema = z.object({ sent: z.number().int(), failed: z.number().int() });
export type ShortcutSendResult = z.infer<typeof shortcutSendResultSchema>;

/** The dry check of /system/shortcut/test: whether running the link now would do something (msg says what). */
export const shortcutTestResultSchema = z.object({ ready: z.boolean() });
export type ShortcutTestResult = z.infer<typeof shortcutTestResultSchema>;
