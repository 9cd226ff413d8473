import { z } from 'zod';
import { isAreaCode } from './areas.ts';
import { isIpAddress } from './validators.ts';
import { parseAddressEntry } from './ip-address.ts';

/* The host firewall: rules, black and white lists, the interception list and attack protection. */

export const firewallDirections = ['in', 'out'] as const;
export const firewallDirectionSchema = z.enum(firewallDirections, { message: 'bad_request' });
export type FirewallDirection = z.infer<typeof firewallDirectionSchema>;

/** `tcp_udp` is one rule for both; `icmp` and `all` take no ports. */
export const firewallProtocols = ['tcp', 'udp', 'tcp_udp', 'icmp', 'all'] as const;
export const firewallProtocolSchema = z.enum(firewallProtocols, { message: 'fw_protocol_invalid' });
export type FirewallProtocol = z.infer<typeof firewallProtocolSchema>;

export const firewallVerdicts = ['allow', 'deny'] as const;
export const firewallVerdictSchema = z.enum(firewallVerdicts, { message: 'fw_action_invalid' });
export type FirewallVerdict = z.infer<typeof firewallVerdictSchema>;

/** A port list such as `80,443,5500-5600`, or `*` for every port. Null when it is not valid. */
export function parsePortList(text: string): Array<[number, number]> | 'any' | null {
  const trimmed = text.trim();
  if (trimmed === '*') return 'any';
  const parts = trimmed.split(',').map((part) => part.trim());
  if (parts.length === 0 || parts.length > 100) return null;
  const ranges: Array<[number, number]> = [];
  for (const part of parts) {
    const match = /^(\d{1,5})(?:\s*-\s*(\d{1,5}))?$/.exec(part);
    if (!match) return null;
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (from < 1 || to > 65535 || from > to) return null;
    ranges.push([from, to]);
  }
  return ranges;
}

export const portListSchema = z
  .string({ message: 'fw_ports_required' })
  .trim()
  .min(1, 'fw_ports_required')
  .max(1000, 'fw_ports_invalid')
  .refine((value) => parsePortList(value) !== null, 'fw_ports_invalid');

/** One address entry: single, CIDR, range or `*`, IPv4 or IPv6. */
export const addressEntrySchema = z
  .string({ message: 'fw_address_invalid' })
  .trim()
  .max(100, 'fw_address_invalid')
  .refine((value) => parseAddressEntry(value) !== null, 'fw_address_invalid');

const remarkSchema = z.string({ message: 'remark_too_long' }).trim().max(200, 'remark_too_long');

/* Common areas (named sets of countries and provinces, system settings) are referenced by rules as `common:<id>`. */

export const commonAreaPrefix = 'common:';
export function commonAreaRef(id: number): string {
  return `${commonAreaPrefix}${id}`;
}
/** The id of a `common:<id>` reference; null for anything else. */
export function commonAreaIdOf(code: string): number | null {
  const match = /^common:([1-9]\d{0,9})$/.exec(code);
  return match ? Number(match[1]) : null;
}
/** A rule's area: a country, a Chinese province, or a common area. */
export const ruleAreaSchema = z.string().refine((value) => isAreaCode(value) || commonAreaIdOf(value) !== null, { message: 'area_invalid' });

const firewallRuleShape = {
  direction: firewallDirectionSchema,
  protocol: firewallProtocolSchema,
  /** Local port (inbound) or destination port (outbound). Ignored for icmp and all. */
  ports: portListSchema,
  /** Source (inbound) or destination (outbound) addresses; `*` alone means every address. */
  ips: z.array(addressEntrySchema).max(1000, 'fw_too_many_addresses').default([]),
  areas: z.array(ruleAreaSchema).max(300, 'fw_too_many_areas').default([]),
  action: firewallVerdictSchema,
  priority: z
    .number({ message: 'fw_priority_required' })
    .int('fw_priority_range')
    .min(1, 'fw_priority_range')
    .max(99, 'fw_priority_range'),
  enabled: z.boolean().default(true),
  remark: remarkSchema.default(''),
};

/** "Access source is required": some addresses or some areas. */
function requireSource(rule: { ips: string[]; areas: string[] }, ctx: z.RefinementCtx): void {
  if (rule.ips.length === 0 && rule.areas.length === 0) ctx.addIssue({ code: 'custom', message: 'fw_source_required', path: ['ips'] });
}

export const firewallRuleInputSchema = z.object(firewallRuleShape).strict().superRefine(requireSource);
/** An edit names the rule it replaces. */
export const firewallRuleEditSchema = z
  .object({ id: z.number({ message: 'fw_rule_not_found' }).int().positive('fw_rule_not_found'), ...firewallRuleShape })
  .strict()
  .superRefine(requireSource);
export type FirewallRuleInput = z.input<typeof firewallRuleInputSchema>;
export type FirewallRuleFields = z.output<typeof firewallRuleInputSchema>;

export const firewallRuleSchema = z.object({
  id: z.number().int(),
  direction: firewallDirectionSchema,
  protocol: firewallProtocolSchema,
  ports: z.string(),
  ips: z.array(z.string()),
  areas: z.array(z.string()),
  action: firewallVerdictSchema,
  priority: z.number().int(),
  enabled: z.boolean(),
  remark: z.string(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type FirewallRule = z.infer<typeof firewallRuleSchema>;

/* Black and white lists, and the super whitelist every engine reads. */

export const firewallListKinds = ['white', 'black'] as const;
export const firewallListKindSchema = z.enum(firewallListKinds, { message: 'bad_request' });
export type FirewallListKind = z.infer<typeof firewallListKindSchema>;

/** The most entries one call adds: an import of a million lines arrives in chunks of this size. */
export const listChunkSize = 50_000;

export const listEntrySchema = z.object({
  id: z.number().int(),
  address: z.string(),
  remark: z.string(),
  created_at: z.number().int(),
  /** Null: no end. */
  expires_at: z.number().int().nullable(),
});
export type ListEntry = z.infer<typeof listEntrySchema>;

/** Entries of the super whitelist (trusted terminals): bypass every protection but remote's computer-name rule. */
export const trustSources = ['manual', 'sign_in', 'terminal'] as const;
export const trustSourceSchema = z.enum(trustSources);
export type TrustSource = z.infer<typeof trustSourceSchema>;
/** How it got there: added by hand, by the automatic add at panel sign-in, or by the trust terminal software. */
export const superWhitelistEntrySchema = listEntrySchema.extend({ added_by: z.string(), source: trustSourceSchema });
export type SuperWhitelistEntry = z.infer<typeof superWhitelistEntrySchema>;

/* The interception list: addresses blocked for a while, by a detection or by hand. */

export const interceptReasons = ['port_scan', 'ssh_bruteforce', 'http_404_scan', 'http_cc', 'manual'] as const;
export const interceptReasonSchema = z.enum(interceptReasons);
export type InterceptReason = z.infer<typeof interceptReasonSchema>;

export const interceptEntrySchema = z.object({
  id: z.number().int(),
  ip: z.string(),
  reason: interceptReasonSchema,
  /** Evidence or the administrator's remark. */
  detail: z.string(),
  blocked_at: z.number().int(),
  expires_at: z.number().int(),
});
export type InterceptEntry = z.infer<typeof interceptEntrySchema>;

export const blockMinutesSchema = z
  .number({ message: 'fw_deny_time_required' })
  .int('fw_deny_time_range')
  .min(1, 'fw_deny_time_range')
  .max(525_600, 'fw_deny_time_range');

/** A single address to block by hand: the interception list holds addresses, not networks. */
export const hostAddressSchema = z.string({ message: 'fw_address_invalid' }).trim().max(45, 'fw_address_invalid').refine(isIpAddress, 'fw_address_invalid');

/* Attack protection. Times-per-minute thresholds are what the settings page shows. */

const frequency = (max: number) =>
  z.number({ message: 'fw_frequency_required' }).int('fw_frequency_range').min(1, 'fw_frequency_range').max(max, 'fw_frequency_range');
const windowSeconds = z.number({ message: 'fw_window_required' }).int('fw_window_range').min(1, 'fw_window_range').max(86_400, 'fw_window_range');
const logPath = z
  .string({ message: 'fw_log_path_invalid' })
  .trim()
  .max(4096, 'fw_log_path_invalid')
  .regex(/^\/[^\0]*$/, 'fw_log_path_invalid');

export const accessLogFormats = ['nginx', 'apache'] as const;

export const attackSettingsSchema = z
  .object({
    /** More than `ports` distinct ports probed within `seconds` blocks the source (counted in the kernel). */
    port_scan: z
      .object({
        enabled: z.boolean(),
        ports: z.number({ message: 'fw_scan_frequency_required' }).int('fw_frequency_range').min(1, 'fw_frequency_range').max(65_535, 'fw_frequency_range'),
        seconds: windowSeconds,
        block_minutes: blockMinutesSchema,
      })
      .strict(),
    /** More than `attempts` failed SSH logins within `seconds`, read from journald and from auth log files. */
    ssh_bruteforce: z
      .object({
        enabled: z.boolean(),
        attempts: frequency(100_000),
        seconds: windowSeconds,
        block_minutes: blockMinutesSchema,
        journal: z.boolean(),
        log_files: z.array(logPath).max(20, 'fw_too_many_paths'),
      })
      .strict(),
    /** More than `per_minute` 404 answers to one client within a minute, from web access logs. */
    scan_404: z.object({ enabled: z.boolean(), per_minute: frequency(1_000_000), block_minutes: blockMinutesSchema }).strict(),
    /** More than `per_minute` requests from one client within a minute (an HTTP flood), from web access logs. */
    cc: z.object({ enabled: z.boolean(), per_minute: frequency(1_000_000), block_minutes: blockMinutesSchema }).strict(),
    access_logs: z
      .array(z.object({ path: logPath, format: z.enum(accessLogFormats, { message: 'fw_log_format_invalid' }) }).strict())
      .max(50, 'fw_too_many_paths'),
  })
  .strict();
export type AttackSettings = z.infer<typeof attackSettingsSchema>;

export const defaultAttackSettings: AttackSettings = {
  port_scan: { enabled: true, ports: 10, seconds: 10, block_minutes: 60 },
  ssh_bruteforce: { enabled: true, attempts: 10, seconds: 120, block_minutes: 60, journal: true, log_files: ['/var/log/auth.log', '/var/log/secure'] },
  scan_404: { enabled: true, per_minute: 20, block_minutes: 60 },
  cc: { enabled: true, per_minute: 300, block_minutes: 60 },
  access_logs: [
    { path: '/var/log/nginx/access.log', format: 'nginx' },
    { path: '/var/log/apache2/access.log', format: 'apache' },
    { path: '/var/log/httpd/access_log', format: 'apache' },
  ],
};

/* Changes that could cut the administrator off. */

/** Who is making a change, so the agent can keep them reachable. */
export const firewallGuardSchema = z
  .object({
    admin_ip: z.string().max(45).refine(isIpAddress).nullable(),
    panel_port: z.number().int().min(1).max(65535),
    account: z.string().max(64).default(''),
  })
  .strict();
export type FirewallGuard = z.infer<typeof firewallGuardSchema>;

/** Seconds a change that cuts the administrator's own address waits for confirmation before it is rolled back. */
export const probationSeconds = 60;

export const firewallWarnings = ['own_ip_blocked', 'panel_port_closed'] as const;
export const firewallWarningSchema = z.enum(firewallWarnings);
export type FirewallWarning = z.infer<typeof firewallWarningSchema>;

export const probationSchema = z.object({ token: z.string(), expires_at: z.number().int(), warnings: z.array(firewallWarningSchema) });
export type Probation = z.infer<typeof probationSchema>;

/** Why a change was not made (a message key the console shows). */
export const firewallRefusals = ['fw_probation_pending', 'fw_rule_not_found', 'area_common_missing', 'area_not_found', 'area_name_taken'] as const;
export type FirewallRefusal = (typeof firewallRefusals)[number];

export const firewallChangeSchema = z.object({
  refused: z.enum(firewallRefusals).nullable(),
  /** Set when the change is on probation: confirm before `expires_at` or it is rolled back. */
  probation: probationSchema.nullable(),
  warnings: z.array(firewallWarningSchema),
  changed: z.number().int(),
});
export type FirewallChange = z.infer<typeof firewallChangeSchema>;

export const firewallStatusSchema = z.object({
  /** `ok`: the ruleset is in the kernel; `off`: the module is off; `unavailable`: no root or no nftables. */
  kernel: z.enum(['ok', 'off', 'unavailable', 'error']),
  message: z.string(),
  applied_at: z.number().int().nullable(),
  restored: z.number().int(),
  counts: z.object({ rules_in: z.number().int(), rules_out: z.number().int(), white: z.number().int(), black: z.number().int(), intercept: z.number().int() }),
  probation: probationSchema.nullable(),
});
export type FirewallStatus = z.infer<typeof firewallStatusSchema>;
