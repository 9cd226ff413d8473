import { z } from 'zod';
import { roleIds } from './permissions.ts';
import { positiveIntParam, stampParam } from './query-params.ts';
import { accountNameSchema, isValidPassword } from './validators.ts';

// Schemas of the user tab: panel accounts and online terminals.

/** 1 enabled, 0 disabled (the shape of `status` elsewhere in the console). */
export const panelAccountStatusSchema = z.union([z.literal(0), z.literal(1)], { message: 'user_status_invalid' });

const username = z.string({ message: 'account_name_invalid' }).trim().pipe(accountNameSchema);
const password = z.string({ message: 'password_invalid' }).refine(isValidPassword, { message: 'password_invalid' });
const role = z.enum(roleIds, { message: 'user_role_invalid' });
const remark = z.string({ message: 'remark_too_long' }).trim().max(200, 'remark_too_long');

/** POST /system/user: a new account. The password is required and follows the account rules. */
export const panelAccountAddBodySchema = z
  .object({ username, password, role, status: panelAccountStatusSchema.default(1), remark: remark.default('') })
  .strict();
export type PanelAccountAddBody = z.infer<typeof panelAccountAddBodySchema>;
export type PanelAccountAddInput = z.input<typeof panelAccountAddBodySchema>;

/**
 * POST /system/user_edit?uid=: only the fields sent change (the table's status switch sends
 * `status` alone). A blank or missing password keeps the stored one.
 */
export const panelAccountEditBodySchema = z
  .object({
    username: username.optional(),
    password: z.union([z.literal(''), password], { message: 'password_invalid' }).optional(),
    role: role.optional(),
    status: panelAccountStatusSchema.optional(),
    remark: remark.optional(),
  })
  .strict();
export type PanelAccountEditBody = z.infer<typeof panelAccountEditBodySchema>;

/** `uid` of user_edit and user_delete. */
export const panelAccountUidQuerySchema = z.object({ uid: positiveIntParam('user_not_found'), ...stampParam }).strict();

/** A session's public id: not the token, not its stored hash (see the console's db/sessions.ts). */
export const sessionPublicIdPattern = /^[0-9a-f]{16}$/;
/** `id` of the terminal sign-out. */
export const onlineTerminalIdQuerySchema = z
  .object({ id: z.string({ message: 'user_session_not_found' }).regex(sessionPublicIdPattern, 'user_session_not_found'), ...stampParam })
  .strict();

/** One panel account as GET /system/user lists it. The password (hash) never leaves the console. */
export const panelAccountSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  role: z.enum(roleIds),
  status: z.union([z.literal(0), z.literal(1)]),
  remark: z.string(),
  created_at: z.number().int(),
  last_login_at: z.number().int().nullable(),
  last_login_ip: z.string().nullable(),
  /** Has at least one live (unexpired) session. */
  online: z.boolean(),
  /** The account of the caller: the page offers no way to disable, demote or delete it. */
  self: z.boolean(),
});
export type PanelAccount = z.infer<typeof panelAccountSchema>;
export const panelAccountListSchema = z.object({ list: z.array(panelAccountSchema) });
export type PanelAccountList = z.infer<typeof panelAccountListSchema>;

/** One live session as GET /system/user/online/list shows it. */
export const onlineTerminalSchema = z.object({
  id: z.string(),
  user_id: z.number().int(),
  username: z.string(),
  role: z.enum(roleIds),
  ip: z.string(),
  /** Browser and system read from the user agent ("Chrome 139 / Windows 10"); '' when unknown. */
  terminal: z.string(),
  user_agent: z.string(),
  login_at: z.number().int(),
  /** null: the session never expires (session timeout 0). */
  expires_at: z.number().int().nullable(),
  /** Milliseconds since sign-in, at the console's clock. */
  elapsed_ms: z.number().int(),
  /** The session this list was asked with. */
  current: z.boolean(),
});
export type OnlineTerminal = z.infer<typeof onlineTerminalSchema>;
export const onlineTerminalListSchema = z.object({ list: z.array(onlineTerminalSchema) });
export type OnlineTerminalList = z.infer<typeof onlineTerminalListSchema>;
