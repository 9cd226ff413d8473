// Schemas of the basic tab: temporary disable, alias, NTP.
import { z } from 'zod';
import { isHostOrIp, isIPv6 } from './validators.ts';

/*
 * Messages are message keys (messages/system-basic.ts).
 *
 * Protection: on; temporarily off (comes back by itself at `until`); permanently off (until turned
 * on by hand). The agent owns the state, so it holds while the console is down and its timer
 * resumes protection even then.
 */
export const protectionModes = ['on', 'temp_off', 'off'] as const;
export const protectionModeSchema = z.enum(protectionModes);
export type ProtectionMode = z.infer<typeof protectionModeSchema>;

/** Default length of a temporary disable, in minutes. */
export const defaultTempMinutes = 720;
/** Choice: a year at most, so `until` stays a sane date; the spec only fixes the minimum of 1. */
export const maxTempMinutes = 525_600;
export const tempMinutesSchema = z
  .number({ message: 'basic_minutes_invalid' })
  .int('basic_minutes_invalid')
  .min(1, 'basic_minutes_invalid')
  .max(maxTempMinutes, 'basic_minutes_invalid');

export const protectionStateSchema = z.object({
  mode: protectionModeSchema,
  /** temp_off: when protection comes back (Unix ms); otherwise null. */
  until: z.number().nullable(),
  /** temp_off: whole minutes left, rounded up; otherwise null. */
  minutes_left: z.number().int().nullable(),
  /** When the current mode began (null: on since the first start). */
  since: z.number().nullable(),
  /** Who set the current mode ('' for the agent's own timer or the first start). */
  account: z.string(),
});
export type ProtectionState = z.infer<typeof protectionStateSchema>;

const actorFields = {
  /** Who asked, and from where: for the event and the notice the agent records. */
  account: z.string().max(64).default(''),
  ip: z.string().max(64).default(''),
};

export const protectionSetParamsSchema = z
  .object({ mode: protectionModeSchema, minutes: tempMinutesSchema.optional(), ...actorFields })
  .strict()
  .refine((p) => p.mode !== 'temp_off' || p.minutes !== undefined, { message: 'basic_minutes_invalid', path: ['minutes'] });

/* ---------- NTP ---------- */

export const maxNtpServers = 10;
export const defaultNtpInterval = 60;
/** Choice: a week at most between syncs; the spec fixes the minimum of 1 minute. */
export const maxNtpInterval = 10_080;

/**
 * An NTP server as the administrator writes it: a host name or IP, optionally with a port
 * (`host:port`, `[v6]:port`; a bare IPv6 has no port). Null when it is not one.
 */
export function parseNtpServer(text: string): { host: string; port: number } | null {
  const value = text.trim();
  const portOf = (p: string) => (/^\d{1,5}$/.test(p) && Number(p) >= 1 && Number(p) <= 65535 ? Number(p) : null);
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(value);
  if (bracketed) {
    const port = bracketed[2] === undefined ? 123 : portOf(bracketed[2]);
    return isIPv6(bracketed[1]!) && port !== null ? { host: bracketed[1]!, port } : null;
  }
  if (isIPv6(value)) return { host: value, port: 123 };
  const colon = value.lastIndexOf(':');
  const host = colon >= 0 ? value.slice(0, colon) : value;
  const port = colon >= 0 ? portOf(value.slice(colon + 1)) : 123;
  if (port === null || host === '' || !isHostOrIp(host)) return null;
  return { host, port };
}

export const ntpServerSchema = z
  .string({ message: 'ntp_server_invalid' })
  .trim()
  .min(1, 'ntp_server_invalid')
  .max(261, 'ntp_server_invalid')
  .refine((s) => parseNtpServer(s) !== null, 'ntp_server_invalid');

export const ntpIntervalSchema = z
  .number({ message: 'ntp_interval_invalid' })
  .int('ntp_interval_invalid')
  .min(1, 'ntp_interval_invalid')
  .max(maxNtpInterval, 'ntp_interval_invalid');

export const ntpSettingsSchema = z
  .object({
    /** Periodic sync on or off; "sync now" works either way. */
    enabled: z.boolean(),
    /** Tried in this order; the first that answers sets the clock. */
    servers: z.array(ntpServerSchema).max(maxNtpServers, 'ntp_servers_max'),
    interval_minutes: ntpIntervalSchema,
  })
  .strict()
  .refine((s) => !s.enabled || s.servers.length > 0, { message: 'ntp_servers_required', path: ['servers'] })
  .refine((s) => new Set(s.servers.map((v) => v.toLowerCase())).size === s.servers.length, { message: 'has_duplicates', path: ['servers'] });
export type NtpSettings = z.infer<typeof ntpSettingsSchema>;

/** Choice: off by default, so a fresh install does not fight the host's own time service. */
export const defaultNtpSettings: NtpSettings = { enabled: false, servers: ['ntp.aliyun.com', 'pool.ntp.org'], interval_minutes: defaultNtpInterval };

export const ntpStates = ['idle', 'fetching', 'success', 'failure'] as const;
export const ntpStatusSchema = z.object({
  state: z.enum(ntpStates),
  /** When the last sync finished (Unix ms). */
  at: z.number().nullable(),
  /** The server that answered (success) or the last one tried (failure). */
  server: z.string(),
  /** The server's time when it answered (Unix ms). */
  time: z.number().nullable(),
  /** How far the clock was behind the server, ms (positive: it was slow). */
  offset_ms: z.number().nullable(),
  delay_ms: z.number().nullable(),
  /** Whether the clock was set (false: fetched but setting it failed, see error). */
  clock_set: z.boolean(),
  /** Why it failed, per server (technical; the page shows the fixed message above it). */
  error: z.string(),
});
export type NtpStatus = z.infer<typeof ntpStatusSchema>;

export const ntpViewSchema = z.object({ settings: ntpSettingsSchema, status: ntpStatusSchema });
export type NtpView = z.infer<typeof ntpViewSchema>;

/* ---------- Console API ---------- */

export const serverAliasSchema = z
  .string({ message: 'basic_alias_invalid' })
  .trim()
  .max(64, 'basic_alias_invalid')
  // Control characters would break titles and logs.
  .refine((s) => ![...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f), 'basic_alias_invalid');

/** POST /system/basic: both fields, always. */
export const basicSettingsSchema = z.object({ server_alias: serverAliasSchema, temp_minutes: tempMinutesSchema }).strict();
export type BasicSettings = z.infer<typeof basicSettingsSchema>;

/** GET /system/basic: the settings and the protection state (null while the agent is away). */
export const basicViewSchema = z.object({ server_alias: z.string(), temp_minutes: z.number().int(), protection: protectionStateSchema.nullable() });
export type BasicView = z.infer<typeof basicViewSchema>;

/** POST /system/basic/protection: temp_off takes `minutes` (default: the saved temp_minutes). */
export const protectionBodySchema = z.object({ mode: protectionModeSchema, minutes: tempMinutesSchema.optional() }).strict();
export type ProtectionBody = z.infer<typeof protectionBodySchema>;

/** POST /system/basic/ntp: save the settings, sync now, or both. */
export const ntpBodySchema = z
  .object({ settings: ntpSettingsSchema.optional(), sync: z.boolean({ message: 'bad_request' }) })
  .strict()
  .refine((b) => b.settings !== undefined || b.sync, { message: 'bad_request' });
export type NtpBody = z.infer<typeof ntpBodySchema>;

/** Agent calls of this area, merged into the agent's call table (agent.ts). */
const none = z.object({}).strict();
export const systemBasicAgentParams = {
  'protection.get': none,
  'protection.set': protectionSetParamsSchema,
  'ntp.get': none,
  'ntp.set': z.object({ settings: ntpSettingsSchema }).strict(),
  /** Syncs now and answers when done (every server tried in turn). */
  'ntp.sync': none,
} as const;
export const systemBasicAgentResults = {
  'protection.get': protectionStateSchema,
  'protection.set': protectionStateSchema,
  'ntp.get': ntpViewSchema,
  'ntp.set': ntpViewSchema,
  'ntp.sync': ntpViewSchema,
} as const;
