import { z } from 'zod';
import { commonAreaMembersSchema, commonAreaNameSchema } from './common-areas.ts';
import {
  addressEntrySchema, attackSettingsSchema, commonAreaIdOf, firewallChangeSchema, firewallGuardSchema, firewallRuleInputSchema, trustSourceSchema,
} from './firewall.ts';
import { backupRuleInputSchema, backupRuleTarget, logSettingsSchema } from './log-settings.ts';
import { moduleKeySchema } from './modules.ts';
import { ntpSettingsSchema } from './system-basic.ts';
import { stampParam } from './query-params.ts';

/*
 * Configuration backup: export, import, server backups, restore.
 *
 * What a configuration is (choice; the spec names only "config file, software version, backup time"):
 * - console: every panel setting (settingDefs, read generically, so settings other areas add are
 *   carried too) except runtime state, and the module switches;
 * - agent: the firewall's desired state (inbound/outbound rules, common areas, white list, black
 *   list, super whitelist, attack protection settings), the logging settings with the log-backup
 *   rules, and the NTP time-sync settings.
 * Not carried: panel accounts and sessions (restoring old accounts or passwords could lock the
 * administrator out), the registration (bound to this machine), the interception list and events
 * (runtime data, not configuration), system protection's on/off state (runtime: an old file must
 * not switch protection off), and how the panel is reached (see console-part.ts in the console).
 *
 * The file is JSON: a format marker, a format version, the software version, when and on which
 * device it was made, and a SHA-256 over the canonical JSON of `content`. A file without the marker,
 * of a newer format, or whose checksum does not match is refused before anything changes.
 */

/** The marker every Rampart configuration file carries. */
export const configFormat = 'rampart-config';
/** Raised when the layout of `content` changes in a way older builds cannot read. */
export const configFormatVersion = 1;
/**
 * Largest configuration file accepted (upload, import). Lists can hold a million entries (about
 * 50 bytes each in the file); they travel to and from the agent in chunks, never in one line.
 */
export const configMaxBytes = 64 * 1024 * 1024;
/** Server backups kept; the oldest go first. */
export const configBackupsKept = 30;
/** List entries per agent call when a configuration is read or staged. */
export const configListChunk = 50_000;

const text = (max: number) => z.string().max(max, 'text_too_long');

/**
 * One entry of the white list, black list or super whitelist, as a tuple to keep big lists small:
 * [address, remark, added by, created (ms), end (ms) or null, source (super whitelist: by hand,
 * panel sign-in, trust terminal)].
 */
export const configListEntrySchema = z.tuple([
  addressEntrySchema,
  text(200),
  text(64),
  z.number().int().nonnegative(),
  z.number().int().positive().nullable(),
  trustSourceSchema,
]);
export type ConfigListEntry = z.infer<typeof configListEntrySchema>;

const maxListEntries = 2_000_000;
export const configListNames = ['white', 'black', 'super'] as const;
export const configListNameSchema = z.enum(configListNames);
export type ConfigListName = z.infer<typeof configListNameSchema>;

export const configListsSchema = z
  .object({
    white: z.array(configListEntrySchema).max(maxListEntries),
    black: z.array(configListEntrySchema).max(maxListEntries),
    super: z.array(configListEntrySchema).max(maxListEntries),
  })
  .strict();
export type ConfigLists = z.infer<typeof configListsSchema>;

/** A common area keeps its id: rules refer to it as `common:<id>`. */
export const configCommonAreaSchema = z
  .object({
    id: z.number().int().positive(),
    name: commonAreaNameSchema,
    members: commonAreaMembersSchema,
    remark: text(200),
    created_at: z.number().int().nonnegative(),
    updated_at: z.number().int().nonnegative(),
  })
  .strict();
export type ConfigCommonArea = z.infer<typeof configCommonAreaSchema>;

const firewallCoreShape = {
  rules: z.array(firewallRuleInputSchema).max(10_000),
  /** Common areas (system settings) live beside the rules that use them. */
  areas: z.array(configCommonAreaSchema).max(10_000),
  attack: attackSettingsSchema,
};

/** Every `common:<id>` a rule names is in the file, and each area id and name once. */
function checkAreas(part: { rules: Array<{ areas: string[] }>; areas: Array<{ id: number; name: string }> }, ctx: z.RefinementCtx): void {
  const ids = new Set<number>();
  const names = new Set<string>();
  part.areas.forEach((area, index) => {
    if (ids.has(area.id)) ctx.addIssue({ code: 'custom', message: 'has_duplicates', path: ['areas', index, 'id'] });
    if (names.has(area.name.toLowerCase())) ctx.addIssue({ code: 'custom', message: 'area_name_taken', path: ['areas', index, 'name'] });
    ids.add(area.id);
    names.add(area.name.toLowerCase());
  });
  part.rules.forEach((rule, index) => {
    rule.areas.forEach((code, at) => {
      const id = commonAreaIdOf(code);
      if (id !== null && !ids.has(id)) ctx.addIssue({ code: 'custom', message: 'area_common_missing', path: ['rules', index, 'areas', at] });
    });
  });
}

/** The firewall part without its lists: what travels in the one `config.import` call. */
export const configFirewallCoreSchema = z.object(firewallCoreShape).strict().superRefine(checkAreas);
export type ConfigFirewallCore = z.infer<typeof configFirewallCoreSchema>;

/** The firewall part as the file carries it. */
export const configFirewallSchema = z.object({ ...firewallCoreShape, lists: configListsSchema }).strict().superRefine(checkAreas);
export type ConfigFirewall = z.infer<typeof configFirewallSchema>;

/**
 * A log-backup rule: the rule with its secrets blanked, and the secrets as the agent sealed them
 * with its machine key (AES-256-GCM). The file alone never gives the secrets away; restored on
 * another machine they do not open, and the rule keeps the secret it has there (or none).
 */
export const configBackupRuleSchema = z
  .object({
    rule: backupRuleInputSchema,
    sealed_password: text(4096),
    sealed_access_secret: text(4096),
  })
  .strict();
export type ConfigBackupRule = z.infer<typeof configBackupRuleSchema>;

export const configLogsSchema = z
  .object({
    settings: logSettingsSchema,
    backup_rules: z
      .array(configBackupRuleSchema)
      .max(20, 'backup_rules_max')
      .superRefine((rules, ctx) => {
        const seen = new Set<string>();
        rules.forEach((item, index) => {
          const key = backupRuleTarget(item.rule);
          if (seen.has(key)) ctx.addIssue({ code: 'custom', message: 'has_duplicates', path: [index] });
          seen.add(key);
        });
      }),
  })
  .strict();
export type ConfigLogs = z.infer<typeof configLogsSchema>;

/** The agent's part of a configuration, as the file carries it. */
export const agentConfigSchema = z.object({ firewall: configFirewallSchema, logs: configLogsSchema, ntp: ntpSettingsSchema }).strict();
export type AgentConfig = z.infer<typeof agentConfigSchema>;

/** The same without the list entries (those are read and staged in chunks). */
export const agentConfigCoreSchema = z.object({ firewall: configFirewallCoreSchema, logs: configLogsSchema, ntp: ntpSettingsSchema }).strict();
export type AgentConfigCore = z.infer<typeof agentConfigCoreSchema>;

/** The console's part: settings by key (each checked against its own schema by the console) and module switches. */
export const consoleConfigSchema = z
  .object({
    settings: z.record(z.string().max(100), z.unknown()),
    modules: z.partialRecord(moduleKeySchema, z.union([z.literal(0), z.literal(1)])),
  })
  .strict();
export type ConsoleConfig = z.infer<typeof consoleConfigSchema>;

export const configContentSchema = z.object({ console: consoleConfigSchema, agent: agentConfigSchema }).strict();
export type ConfigContent = z.infer<typeof configContentSchema>;

/** The head of a file: read first, so a foreign or newer file is told apart from a damaged one. */
export const configHeadSchema = z.object({
  format: z.literal(configFormat),
  format_version: z.number().int().min(1),
  software_version: z.string().max(50),
  created_at: z.number().int().nonnegative(),
  device: z.string().max(100),
  checksum: z.string().regex(/^sha256:[0-9a-f]{64}$/),
});
export type ConfigHead = z.infer<typeof configHeadSchema>;

export const configFileSchema = configHeadSchema.extend({ content: configContentSchema }).strict();
export type ConfigFile = z.infer<typeof configFileSchema>;

/** JSON with object keys sorted at every level: the checksum does not depend on key order or spacing. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/* Server backups. */

export const configBackupKinds = ['manual', 'upload', 'auto'] as const;
export type ConfigBackupKind = (typeof configBackupKinds)[number];

/**
 * Server-side backup names are generated, never taken from the user: `rampart-config-` + UTC time
 * + random part + kind. A name in a query must match this exactly (no paths, no dots elsewhere).
 */
export const configBackupNamePattern = /^rampart-config-\d{8}-\d{6}-[a-z0-9]{6}-(manual|upload|auto)\.json$/;
export const configBackupNameSchema = z
  .string({ message: 'cfg_backup_not_found' })
  .max(100, 'cfg_backup_not_found')
  .regex(configBackupNamePattern, 'cfg_backup_not_found');

export const configBackupViewSchema = z.object({
  file: z.string(),
  kind: z.enum(configBackupKinds),
  software_version: z.string(),
  format_version: z.number().int(),
  created_at: z.number().int(),
  device: z.string(),
  size: z.number().int(),
});
export type ConfigBackupView = z.infer<typeof configBackupViewSchema>;

/** GET /system/config/backup: the list, or with `file` that backup as a download. */
export const configBackupQuerySchema = z.object({ file: configBackupNameSchema.optional(), ...stampParam }).strict();
/** POST /system/config/backup/delete?file= */
export const configBackupFileQuerySchema = z.object({ file: configBackupNameSchema, ...stampParam }).strict();
/** POST /system/config/backup/restore?fid= */
export const configBackupRestoreQuerySchema = z.object({ fid: configBackupNameSchema, ...stampParam }).strict();

/** What a restore did beyond replacing the configuration. */
export const configRestoreResultSchema = z.object({
  /** The automatic backup of the configuration as it was before (restore it to undo). */
  undo_file: z.string(),
  /** Set when the firewall part cut the administrator off: it is live on probation (confirm or it rolls back). */
  probation: firewallChangeSchema.shape.probation,
  /** Log-backup secrets that did not open on this machine (a file from elsewhere): enter them again. */
  secrets_dropped: z.number().int(),
});
export type ConfigRestoreResult = z.infer<typeof configRestoreResultSchema>;

/* Agent calls. */

export const configImportResultSchema = z.object({
  refused: firewallChangeSchema.shape.refused,
  probation: firewallChangeSchema.shape.probation,
  warnings: firewallChangeSchema.shape.warnings,
  secrets_dropped: z.number().int(),
});
export type ConfigImportResult = z.infer<typeof configImportResultSchema>;

/** One import's staged list entries: named by the console, one at a time, forgotten after a while. */
const stageIdSchema = z.string().regex(/^[a-f0-9]{32}$/);

/** Agent calls of this area, merged into the agent's call table (agent.ts). */
export const configBackupAgentParams = {
  /** The agent's part of the configuration as it stands, without the list entries. */
  'config.export': z.object({}).strict(),
  /** List entries in id order after `after` (0: from the start), ended ones left out. */
  'config.export.list': z.object({ list: configListNameSchema, after: z.number().int().min(0), limit: z.number().int().min(1).max(configListChunk) }).strict(),
  /** Adds entries to a staged import (checked here already); a new stage id drops an older stage. */
  'config.stage': z.object({ stage: stageIdSchema, list: configListNameSchema, entries: z.array(configListEntrySchema).max(configListChunk) }).strict(),
  /**
   * Replaces the agent's part in one go — `config` plus the lists staged under `stage` (null: the
   * lists become empty): checked again, written in one transaction, the kernel made to match once.
   * A firewall part that cuts `guard.admin_ip` off goes live on probation.
   */
  'config.import': z.object({ config: agentConfigCoreSchema, stage: stageIdSchema.nullable(), guard: firewallGuardSchema }).strict(),
} as const;
export const configBackupAgentResults = {
  'config.export': agentConfigCoreSchema,
  'config.export.list': z.object({ entries: z.array(configListEntrySchema), last: z.number().int() }),
  'config.stage': z.object({ staged: z.number().int() }),
  'config.import': configImportResultSchema,
} as const;
