import { z } from 'zod';
import { addressEntrySchema, ruleAreaSchema } from './firewall.ts';

/* Remote-login protection (SSH on Linux): who may reach sshd's port, and when. */

/** `HH:MM`, 00:00 to 23:59, local time of the server. */
const clockTimeSchema = z
  .string({ message: 'remote_time_invalid' })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'remote_time_invalid');

export function minutesOfDay(text: string): number {
  const [hours = 0, minutes = 0] = text.split(':').map(Number);
  return hours * 60 + minutes;
}

/** Days as nft numbers them: 0 is Sunday, 6 Saturday. */
export const weekDays = [0, 1, 2, 3, 4, 5, 6] as const;

/** A time window on some days: start inclusive, end exclusive; end must be later than start (no crossing midnight: use two windows). */
export const remoteWindowSchema = z
  .object({
    days: z
      .array(z.number({ message: 'remote_days_required' }).int('remote_days_required').min(0, 'remote_days_required').max(6, 'remote_days_required'))
      .min(1, 'remote_days_required')
      .max(7, 'remote_days_required'),
    start: clockTimeSchema,
    end: clockTimeSchema,
  })
  .strict()
  .superRefine((window, ctx) => {
    if (minutesOfDay(window.end) <= minutesOfDay(window.start)) ctx.addIssue({ code: 'custom', message: 'remote_window_order', path: ['end'] });
  });
export type RemoteWindow = z.infer<typeof remoteWindowSchema>;

/**
 * The access rule. Nothing in `ips` and `areas` authorizes nobody (only the super whitelist and
 * the administrator get in); no windows means at any time.
 */
export const remoteAccessSchema = z
  .object({
    ips: z.array(addressEntrySchema).max(1000, 'fw_too_many_addresses'),
    areas: z.array(ruleAreaSchema).max(300, 'fw_too_many_areas'),
    windows: z.array(remoteWindowSchema).max(20, 'remote_too_many_windows'),
    /** Every accepted login raises a notice (and so goes out by the alert methods). */
    notify_login: z.boolean({ message: 'bad_request' }),
  })
  .strict();
export type RemoteAccess = z.infer<typeof remoteAccessSchema>;

export const defaultRemoteAccess: RemoteAccess = { ips: [], areas: [], windows: [], notify_login: true };

/**
 * The brute-force limit as the remote page shows it: attempts per hour. It is the firewall's SSH
 * brute-force scenario (attack settings `ssh_bruteforce`), not a second counter.
 */
export const remoteBruteforceSchema = z
  .object({
    enabled: z.boolean({ message: 'bad_request' }),
    attempts_per_hour: z.number({ message: 'fw_frequency_required' }).int('fw_frequency_range').min(1, 'fw_frequency_range').max(100_000, 'fw_frequency_range'),
    block_minutes: z.number({ message: 'fw_deny_time_required' }).int('fw_deny_time_range').min(1, 'fw_deny_time_range').max(525_600, 'fw_deny_time_range'),
  })
  .strict();
export type RemoteBruteforce = z.infer<typeof remoteBruteforceSchema>;

/** sshd's effective settings as `sshd -T` prints them. */
export const sshdReadingSchema = z.object({
  /** `sshd` missing or `sshd -T` failed: the message says why. */
  ok: z.boolean(),
  ports: z.array(z.number().int()),
  password_authentication: z.boolean().nullable(),
  permit_root_login: z.string().nullable(),
  message: z.string(),
});
export type SshdReading = z.infer<typeof sshdReadingSchema>;

export const remoteWarnings = ['remote_nothing_authorized', 'own_ip_blocked', 'remote_firewall_off'] as const;
export type RemoteWarning = (typeof remoteWarnings)[number];

export const remoteViewSchema = z.object({
  enabled: z.boolean(),
  /** Enforced in the kernel now: the module and the firewall (whose table carries the chain) are on. */
  enforced: z.boolean(),
  access: remoteAccessSchema,
  bruteforce: remoteBruteforceSchema.extend({ seconds: z.number().int() }),
  sshd: sshdReadingSchema,
  /** The server's UTC offset now (minutes east) and when it next changes (DST), which reloads the windows. */
  utc_offset_minutes: z.number().int(),
  next_offset_change: z.number().int().nullable(),
  warnings: z.array(z.enum(remoteWarnings)),
  /** The client-computer-name rule exists for Windows RDP only. */
  computer_name_rule: z.object({ available: z.literal(false), reason: z.literal('remote_computer_name_windows_only') }),
});
export type RemoteView = z.infer<typeof remoteViewSchema>;

/** One accepted SSH login, as the event and the notice carry it. */
export const remoteLoginSchema = z.object({ user: z.string(), ip: z.string(), area: z.string(), method: z.string(), at: z.number().int() });
export type RemoteLogin = z.infer<typeof remoteLoginSchema>;
