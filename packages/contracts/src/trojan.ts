import { z } from 'zod';
import { webshellFindingSchema, webshellLanguageSchema, webshellReasonSchema, webshellRiskSchema, webshellScanStates, webshellWhitelistEntrySchema } from './webshell.ts';

/*
 * Trojan (web-shell) protection, the `/trojan` module and the audit's trojan tab: protected
 * directories, scan settings, the custom library, scans and their results, and isolated files.
 * The engine is packages/webshell; the agent owns every piece of state here (it runs as root,
 * watches the directories and keeps the quarantine); the console is a door to it.
 *
 * Choices where the spec gives two readings or none:
 * - Handling "trust / isolate / delete / record only": `trust` is an administrator's answer to one
 *   finding (its SHA-256 is trusted: the same bytes are never flagged again, anywhere). Automatic
 *   handling (what the real-time watch and scheduled scans do by themselves) is one of isolate,
 *   delete or record: trusting by default would be no protection.
 * - Restoring an isolated file trusts its SHA-256 as well: the administrator says it is no web shell,
 *   and the watch would otherwise isolate it again the moment it is back.
 * - A scan's "end" is a scan stopped before every file was done (cancelled, or the agent stopped);
 *   "complete" is every file done.
 * - Only `high` and `medium` findings are handled; `low` is listed in results but never acted on.
 */

/** Automatic handling of a web shell found by the watch or a scheduled scan. */
export const trojanAutoHandlings = ['isolate', 'delete', 'record'] as const;
export const trojanAutoHandlingSchema = z.enum(trojanAutoHandlings, { message: 'trojan_handling_invalid' });
export type TrojanAutoHandling = z.infer<typeof trojanAutoHandlingSchema>;

/** What an administrator can do with one result. */
export const trojanResultActions = ['trust', 'isolate', 'delete', 'record'] as const;
export const trojanResultActionSchema = z.enum(trojanResultActions, { message: 'trojan_handling_invalid' });
export type TrojanResultAction = z.infer<typeof trojanResultActionSchema>;

/** What became of a flagged file: `pending` is an audit result waiting for the administrator. */
export const trojanHandledStates = ['pending', 'recorded', 'trusted', 'isolated', 'deleted', 'failed'] as const;
export const trojanHandledSchema = z.enum(trojanHandledStates);
export type TrojanHandled = z.infer<typeof trojanHandledSchema>;

const extension = z.string().regex(/^[A-Za-z0-9_]{1,16}$/, 'trojan_extension_invalid');
/** "HH:MM", 24 h, local time of the server. */
const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'trojan_time_invalid');

/** The settings tab. */
export const trojanSettingsSchema = z.object({
  /** Scan files in the protected directories when a writer closes them (the real-time watch). */
  realtime: z.boolean(),
  /** The spec's kill types: extensions scanned, without the dot. */
  extensions: z.array(extension).min(1, 'trojan_extensions_required').max(64, 'trojan_extensions_too_many'),
  /** Skip files over this size, in KB (the spec's file-size skip threshold). */
  sizeLimitKb: z.number({ message: 'trojan_size_invalid' }).int('trojan_size_invalid').min(1, 'trojan_size_invalid').max(102_400, 'trojan_size_invalid'),
  handling: trojanAutoHandlingSchema,
  /** Paths never scanned: a full path, or a partial path that must contain `*`. */
  whitelist: z.array(webshellWhitelistEntrySchema).max(1000, 'trojan_whitelist_too_many'),
  /** Isolated files are deleted after this many days; 0 never. */
  isolateRetentionDays: z.number({ message: 'trojan_retention_invalid' }).int('trojan_retention_invalid').min(0, 'trojan_retention_invalid').max(3650, 'trojan_retention_invalid'),
  /** A full scan of every enabled protected directory each day at `time`. */
  schedule: z.object({ enabled: z.boolean(), time: clockTime }).strict(),
}).strict();
export type TrojanSettings = z.infer<typeof trojanSettingsSchema>;

export const defaultTrojanSettings: TrojanSettings = {
  realtime: true,
  extensions: ['php', 'php5', 'phtml', 'inc', 'jsp', 'jspx', 'asp', 'asa', 'aspx', 'asax', 'ashx', 'js'],
  sizeLimitKb: 2048,
  handling: 'isolate',
  whitelist: [],
  isolateRetentionDays: 30,
  schedule: { enabled: false, time: '03:00' },
};

/** An absolute path, no `..` or NUL; the agent resolves it and checks it is a directory. */
export const trojanPathSchema = z.string().min(1, 'trojan_path_required').max(4096, 'trojan_path_too_long')
  .refine((value) => value.startsWith('/') && !value.includes('\0') && !value.split('/').includes('..'), { message: 'trojan_path_invalid' });

/** A protected directory. `site` names the local web site it was found from, when it was. */
export const trojanDirSchema = z.object({
  id: z.number().int().positive(),
  path: z.string(),
  enabled: z.boolean(),
  remark: z.string(),
  site: z.string(),
  created: z.number(),
  /**
   * `missing`: the directory is not there (nothing is watched); `watching`: the real-time watch covers it;
   * `unwatchable`: its path holds a newline, which the watch cannot take (scans still cover it).
   */
  state: z.enum(['watching', 'not_watched', 'unwatchable', 'missing', 'off']),
});
export type TrojanDir = z.infer<typeof trojanDirSchema>;

export const trojanDirInputSchema = z.object({
  path: trojanPathSchema,
  remark: z.string().max(200, 'trojan_remark_too_long').default(''),
  site: z.string().max(253).default(''),
}).strict();
export type TrojanDirInput = z.infer<typeof trojanDirInputSchema>;

/** A web site root found from the local nginx/Apache configuration, offered as a protected directory. */
export const trojanSiteRootSchema = z.object({ site: z.string(), path: z.string(), protected: z.boolean() });

/** The custom library: the administrator's own YARA rules and SHA-256 hashes of known shells. */
export const trojanLibrarySchema = z.object({
  rules: z.string().max(1_000_000, 'trojan_rules_too_long'),
  /** One lowercase or uppercase hex SHA-256 per entry; a `# comment` after it is kept out. */
  hashes: z.array(z.string().max(200)).max(100_000, 'trojan_hashes_too_many'),
}).strict();
export type TrojanLibrary = z.infer<typeof trojanLibrarySchema>;

export const trojanScanKinds = ['full', 'scheduled', 'audit'] as const;
export const trojanScanKindSchema = z.enum(trojanScanKinds);
export type TrojanScanKind = z.infer<typeof trojanScanKindSchema>;

/** One scan, running or done. The progress fields are the engine's (contracts/webshell.ts). */
export const trojanScanSchema = z.object({
  id: z.number().int().positive(),
  kind: trojanScanKindSchema,
  paths: z.array(z.string()),
  state: z.enum(webshellScanStates),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  walkDone: z.boolean(),
  currentPath: z.string(),
  flagged: z.number().int().nonnegative(),
  unscanned: z.number().int().nonnegative(),
  account: z.string(),
  started: z.number(),
  ended: z.number().nullable(),
});
export type TrojanScan = z.infer<typeof trojanScanSchema>;

/**
 * One reported file of a scan (flagged, low or unscanned) or of the watch (scan id null). `reason`
 * and `rule` are the strongest finding's; `findings` has them all.
 */
export const trojanResultSchema = z.object({
  id: z.number().int().positive(),
  scanId: z.number().int().positive().nullable(),
  path: z.string(),
  name: z.string(),
  size: z.number().int().nonnegative(),
  mtimeMs: z.number(),
  sha256: z.string(),
  language: webshellLanguageSchema,
  risk: webshellRiskSchema,
  reason: webshellReasonSchema,
  rule: z.string(),
  findings: z.array(webshellFindingSchema),
  handled: trojanHandledSchema,
  /** The isolated file's id when `handled` is `isolated`. */
  isolateId: z.number().int().positive().nullable(),
  found: z.number(),
});
export type TrojanResult = z.infer<typeof trojanResultSchema>;

export const trojanIsolateSources = ['realtime', 'scan', 'audit', 'manual'] as const;

/** An isolated file: moved into the root-only quarantine with what it takes to put it back. */
export const trojanIsolatedSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  originalPath: z.string(),
  size: z.number().int().nonnegative(),
  mode: z.number().int().nonnegative(),
  uid: z.number().int().nonnegative(),
  gid: z.number().int().nonnegative(),
  mtimeMs: z.number(),
  sha256: z.string(),
  risk: webshellRiskSchema,
  reason: webshellReasonSchema,
  rule: z.string(),
  source: z.enum(trojanIsolateSources),
  isolated: z.number(),
});
export type TrojanIsolated = z.infer<typeof trojanIsolatedSchema>;

/** The source viewer's text: never executed, never rendered as HTML. Binary bytes show as U+FFFD. */
export const trojanSourceMaxBytes = 1024 * 1024;
export const trojanSourceSchema = z.object({
  id: z.number().int().positive(),
  text: z.string(),
  /** The file is longer than trojanSourceMaxBytes; the text is its beginning. */
  truncated: z.boolean(),
  binary: z.boolean(),
  findings: z.array(webshellFindingSchema),
});
export type TrojanSource = z.infer<typeof trojanSourceSchema>;

/** The module's status line: watch state, rule-set version (the home page's library version), counts. */
export const trojanStatusSchema = z.object({
  enabled: z.boolean(),
  /** `unavailable` says why in `watchError` (inotify limits, the watcher missing). */
  watch: z.enum(['watching', 'off', 'unavailable']),
  watchError: z.string(),
  watchedDirs: z.number().int().nonnegative(),
  ruleSetVersion: z.string(),
  customRules: z.number().int().nonnegative(),
  customHashes: z.number().int().nonnegative(),
  isolated: z.number().int().nonnegative(),
  /** Web shells found in the last 24 h by the watch and by scans. */
  found24h: z.number().int().nonnegative(),
  running: trojanScanSchema.nullable(),
  lastScan: trojanScanSchema.nullable(),
});
export type TrojanStatus = z.infer<typeof trojanStatusSchema>;
