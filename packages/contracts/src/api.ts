import { z } from 'zod';
import { accountNameSchema, licenceCodeSchema, passwordSchema } from './validators.ts';
import { languageSchema } from './i18n.ts';
import { secretField } from './panel-actions.ts';
import { moduleFlagsSchema, moduleKeySchema } from './modules.ts';
import { permissionSchema, roleIdSchema } from './permissions.ts';
import { hostInfoSchema, netRatesSchema } from './host.ts';
import { systemStatusSchema } from './system-status.ts';
import { signInClientSchema } from './trust-terminal.ts';

/* Bodies and queries of the console API. Messages are message keys (see messages.ts). */

export const loginBodySchema = z.object({
  username: z.string({ message: 'login_required_fields' }).trim().min(1, 'login_required_fields').max(64, 'login_failed'),
  password: z.string({ message: 'login_required_fields' }).min(1, 'login_required_fields').max(128, 'login_failed'),
  remember: z.boolean().optional(),
  /** Absent: the console. `terminal`: a trust terminal token instead of a console session (trust-terminal.ts). */
  client: signInClientSchema.optional(),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const loginResultSchema = z.object({ token: z.string(), expires_at: z.number().nullable() });
export type LoginResult = z.infer<typeof loginResultSchema>;

export const loginConfigSchema = z.object({
  registered: z.boolean(),
  check_mode: z.enum(['off', 'loose', 'strict']),
});
export type LoginConfig = z.infer<typeof loginConfigSchema>;

export const registerBodySchema = z.object({
  key: z.string({ message: 'licence_code_required' }).trim().min(1, 'licence_code_required').pipe(licenceCodeSchema),
  agree: z.literal(true, { message: 'licence_agree_required' }),
  /** The user confirmed moving the code from another device (uses one relocation). */
  confirm_move: z.boolean().optional(),
});
export type RegisterBody = z.infer<typeof registerBodySchema>;

export const registerResultSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('registered'),
    username: z.string(),
    /** Shown once. Null when the admin account already existed and keeps its password. */
    password: z.string().nullable(),
    expires_at: z.number(),
  }),
  z.object({ status: z.literal('need_confirm'), transfers_left: z.number().int() }),
]);
export type RegisterResult = z.infer<typeof registerResultSchema>;

export const regInfoSchema = z.object({
  product_key: z.string(),
  expires_at: z.number(),
  device_id: z.string(),
  product_id: z.string(),
  transfers_left: z.number().int(),
  registered_at: z.number(),
  expired: z.boolean(),
});
export type RegInfo = z.infer<typeof regInfoSchema>;

export const licenceTextSchema = z.object({ title: z.string(), text: z.string() });

export const setPasswordBodySchema = z.object({
  username: accountNameSchema,
  old: secretField(z.string().min(1, 'password_old_wrong').max(128, 'password_old_wrong')),
  new: passwordSchema,
  confirm: secretField(z.string().max(128, 'password_mismatch')),
});
export type SetPasswordBody = z.infer<typeof setPasswordBodySchema>;

/** `module: 'basic'` opens or closes every basic module at once (the home page's one click). */
export const moduleSwitchBodySchema = z.object({
  module: z.union([moduleKeySchema, z.literal('basic')], { message: 'module_unknown' }),
  status: z.union([z.literal(0), z.literal(1)]),
  /** 1: also enable the module's protected objects (asked when opening from other pages). */
  way: z.union([z.literal(0), z.literal(1)]).optional(),
});
export type ModuleSwitchBody = z.infer<typeof moduleSwitchBodySchema>;

export const moduleStatusQuerySchema = z.object({ module: moduleKeySchema });

/** POST /restart?t=1 restarts the software, t=2 reboots the server. */
export const restartQuerySchema = z.object({ t: z.enum(['1', '2'], { message: 'restart_type_invalid' }) });

export const languageBodySchema = z.object({ lang: languageSchema });

export const demoSchema = z.object({ confirm: z.string(), msg: z.string(), url: z.string() }).nullable();

export const userInfoSchema = z.object({
  username: z.string(),
  os: z.string(),
  os_type: z.string(),
  server_alias: z.string(),
  role: z.object({ id: roleIdSchema, name: z.string(), permissions: z.array(permissionSchema) }),
  module_list: moduleFlagsSchema,
  demo: demoSchema,
  lang: languageSchema,
  /**
   * The address the console sees this browser at. Every signed-in user may know their own address;
   * the website blacklists warn with it before a save would block the user themself (spec 5), for
   * any role that can open them, not only those who may read the super whitelist.
   */
  client_ip: z.string(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

export const globalInfoSchema = z.object({
  modules: moduleFlagsSchema,
  oem: z.object({ oem_help: z.string() }),
  registered: z.boolean(),
});
export type GlobalInfo = z.infer<typeof globalInfoSchema>;

export const protectionStatusSchema = z.object({
  mode: z.enum(['on', 'temp_off', 'off']),
  /** Minutes until protection comes back, for temp_off. */
  minutes_left: z.number().int().nullable(),
});

export const homeIndexSchema = z.object({
  protection: protectionStatusSchema,
  version: z.string(),
  expires_at: z.number().nullable(),
  /** Null until a signature library is installed: the page says so rather than invent a version. */
  virlib_version: z.string().nullable(),
  host: hostInfoSchema.nullable(),
  rates: netRatesSchema.nullable(),
  modules: moduleFlagsSchema,
  agent: z.enum(['connected', 'unreachable']),
  /**
   * The system status computed from the switches of this build's modules, the protection mode and
   * each engine's health (system-status.ts): `protection` above stays the bare mode.
   */
  system_status: systemStatusSchema,
});
export type HomeIndex = z.infer<typeof homeIndexSchema>;

export const unreadSchema = z.object({ unread: z.number().int() });

/**
 * POSTs that carry no data (logout, restart, refresh) take no body at all; any body is refused.
 * (Fastify hands an absent body to the validator as null, so null stands for "no body".)
 */
export const emptyBodySchema = z.null({ message: 'bad_request' }).or(z.undefined());

/** GETs that take no parameters accept only the client's cache-busting timestamp `t`. */
export const noQuerySchema = z.object({ t: z.string().max(20).regex(/^\d*$/, 'bad_request').optional() }).strict();
