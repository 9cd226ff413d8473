import { z } from 'zod';
import { languageSchema } from './i18n.ts';
import { eventCategorySchema } from './events.ts';
import { secretField } from './panel-actions.ts';
import { isHostOrIp, isIpAddress } from './validators.ts';

/**
 * Logging settings: how the event store keeps records, where syslog forwards them, and where the
 * daily archives are backed up. The agent owns the event store, so it keeps these settings (in a
 * root-only file, secrets sealed); the console reads and writes them through agent calls.
 * Messages are message keys (messages.ts).
 */
export const logModes = ['simple', 'full'] as const;
export const syslogProtocols = ['rfc3164', 'rfc5424'] as const;
export const syslogCharsets = ['utf-8', 'utf-8-bom', 'gbk', 'gb18030', 'big5'] as const;
export const syslogTransports = ['udp', 'tcp'] as const;
export const backupTypes = ['s3', 'ftp', 'sftp'] as const;

const portSchema = z.number({ message: 'port_invalid' }).int('port_invalid').min(1, 'port_invalid').max(65535, 'port_invalid');

export const syslogServerSchema = z
  .object({
    host: z.string().trim().min(1, 'syslog_host_invalid').max(253, 'syslog_host_invalid').refine(isHostOrIp, 'syslog_host_invalid'),
    port: portSchema.default(514),
    transport: z.enum(syslogTransports).default('udp'),
  })
  .strict();
export type SyslogServer = z.infer<typeof syslogServerSchema>;

export const syslogSettingsSchema = z
  .object({
    enabled: z.boolean(),
    protocol: z.enum(syslogProtocols),
    charset: z.enum(syslogCharsets),
    /** Choice: the forwarded text needs one language; the administrator picks it (default zh-CN, as the UI). */
    lang: languageSchema,
    kinds: z.array(eventCategorySchema).max(3),
    servers: z.array(syslogServerSchema).max(10, 'syslog_servers_max'),
  })
  .strict()
  .refine((s) => !s.enabled || s.servers.length > 0, { message: 'syslog_servers_required', path: ['servers'] })
  .refine((s) => new Set(s.servers.map((v) => `${v.host.toLowerCase()}|${v.port}|${v.transport}`)).size === s.servers.length, {
    message: 'has_duplicates',
    path: ['servers'],
  });
export type SyslogSettings = z.infer<typeof syslogSettingsSchema>;

export const logSettingsSchema = z
  .object({
    /** Choice: simple by default, so an attack wave cannot fill the disk; full keeps every record. */
    mode: z.enum(logModes),
    keep_days: z.number({ message: 'keep_days_invalid' }).int('keep_days_invalid').min(30, 'keep_days_invalid').max(3650, 'keep_days_invalid'),
    /** Alert when the log store (database and archives) grows past this many MB; 0 = no alert. */
    disk_limit_mb: z.number({ message: 'disk_limit_invalid' }).int('disk_limit_invalid').min(0, 'disk_limit_invalid').max(10_000_000, 'disk_limit_invalid'),
    syslog: syslogSettingsSchema,
  })
  .strict();
export type LogSettings = z.infer<typeof logSettingsSchema>;

export const defaultLogSettings: LogSettings = {
  mode: 'simple',
  keep_days: 90,
  disk_limit_mb: 0,
  syslog: { enabled: false, protocol: 'rfc5424', charset: 'utf-8', lang: 'zh-CN', kinds: ['security', 'operation', 'system'], servers: [] },
};

const text = (max: number) => z.string().trim().max(max, 'text_too_long');

/**
 * A log-backup rule as the administrator submits it. `password` and `access_secret` left blank keep
 * the stored ones (for an existing `id`).
 */
export const backupRuleInputSchema = z
  .object({
    id: z.number().int().positive().optional(),
    enabled: z.boolean(),
    type: z.enum(backupTypes, { message: 'backup_type_invalid' }),
    bucket: text(63),
    domain: text(253).refine((v) => v === '' || isHostOrIp(v) || /^https?:\/\/[A-Za-z0-9.:[\]-]+(:\d+)?\/?$/.test(v), 'backup_domain_invalid'),
    ip: text(64).refine((v) => v === '' || isIpAddress(v), 'backup_ip_invalid'),
    port: z.number({ message: 'port_invalid' }).int('port_invalid').min(0, 'port_invalid').max(65535, 'port_invalid'),
    username: text(128),
    password: secretField(z.string().max(256, 'text_too_long')),
    access_id: text(256),
    access_secret: secretField(z.string().max(256, 'text_too_long')),
    save_path: text(512).refine((v) => !v.split('/').includes('..'), 'backup_path_invalid'),
    remark: text(200),
  })
  .strict()
  .superRefine((rule, ctx) => {
    if (!rule.domain && !rule.ip) ctx.addIssue({ code: 'custom', message: 'backup_host_required', path: ['domain'] });
    if (rule.type === 's3') {
      if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(rule.bucket)) ctx.addIssue({ code: 'custom', message: 'bucket_lowercase', path: ['bucket'] });
      if (!rule.access_id) ctx.addIssue({ code: 'custom', message: 'backup_credentials_required', path: ['access_id'] });
    } else if (!rule.username) {
      ctx.addIssue({ code: 'custom', message: 'backup_credentials_required', path: ['username'] });
    }
  });
export type BackupRuleInput = z.infer<typeof backupRuleInputSchema>;

/** Two rules that write to the same place are duplicates (the spec: "has duplicates"). */
export function backupRuleTarget(rule: Pick<BackupRuleInput, 'type' | 'domain' | 'ip' | 'port' | 'bucket' | 'save_path'>): string {
  const path = rule.save_path.replace(/\/+$/, '').replace(/^\/+/, '');
  return [rule.type, (rule.domain || rule.ip).toLowerCase(), rule.port, rule.bucket, path].join('|');
}

export const backupRulesInputSchema = z
  .object({ rules: z.array(backupRuleInputSchema).max(20, 'backup_rules_max') })
  .strict()
  .superRefine((body, ctx) => {
    const seen = new Map<string, number>();
    body.rules.forEach((rule, index) => {
      const key = backupRuleTarget(rule);
      if (seen.has(key)) ctx.addIssue({ code: 'custom', message: 'has_duplicates', path: ['rules', index] });
      seen.set(key, index);
    });
  });
export type BackupRulesInput = z.infer<typeof backupRulesInputSchema>;

/** How a rule's last upload went. */
export const backupStatusSchema = z.object({
  at: z.number().int(),
  ok: z.boolean(),
  file: z.string(),
  error: z.string(),
});

/** A rule as it is shown: secrets never leave the agent, only whether one is stored. */
export const backupRuleViewSchema = z.object({
  id: z.number().int(),
  enabled: z.boolean(),
  type: z.enum(backupTypes),
  bucket: z.string(),
  domain: z.string(),
  ip: z.string(),
  port: z.number().int(),
  username: z.string(),
  has_password: z.boolean(),
  access_id: z.string(),
  has_access_secret: z.boolean(),
  save_path: z.string(),
  remark: z.string(),
  last: backupStatusSchema.nullable(),
});
export type BackupRuleView = z.infer<typeof backupRuleViewSchema>;

/** The fixed subdirectory under each rule's save path (the spec: "the backup subdirectory is fixed"). */
export const backupSubdirectory = 'rampart-logs';
