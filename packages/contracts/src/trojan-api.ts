import { z } from 'zod';
import { keywordParam, pageSizeParam, positiveIntParam, stampParam } from './query-params.ts';
import {
  trojanDirInputSchema,
  trojanDirSchema,
  trojanIsolatedSchema,
  trojanLibrarySchema,
  trojanPathSchema,
  trojanResultActionSchema,
  trojanResultSchema,
  trojanScanKindSchema,
  trojanScanSchema,
  trojanSettingsSchema,
  trojanSiteRootSchema,
  trojanSourceSchema,
  trojanStatusSchema,
} from './trojan.ts';

/* Agent calls and console bodies of trojan protection (`/magapi/trojan/...`, `/magapi/audit/trojan/...`). */

const ids = z.array(z.number().int().positive()).min(1, 'trojan_select_items').max(10_000, 'trojan_select_items');
const page = { keyword: z.string().max(100).optional(), offset: z.number().int().min(0), limit: z.number().int().min(1).max(1000) };
/** Who made the change, for the event log. */
const account = z.string().max(64).default('');
/** Audit scans name their paths; at most 64 of them. */
const scanPaths = z.array(trojanPathSchema).min(1, 'trojan_paths_required').max(64, 'trojan_paths_too_many');

export const trojanAgentParams = {
  'trojan.status': z.object({}).strict(),
  'trojan.settings.get': z.object({}).strict(),
  'trojan.settings.set': z.object({ settings: trojanSettingsSchema, account }).strict(),
  'trojan.dirs.list': z.object(page).strict(),
  'trojan.dirs.add': z.object({ dirs: z.array(trojanDirInputSchema).min(1, 'trojan_path_required').max(100), account }).strict(),
  'trojan.dirs.edit': z.object({ id: z.number().int().positive(), remark: z.string().max(200, 'trojan_remark_too_long'), account }).strict(),
  'trojan.dirs.set_enabled': z.object({ ids, enabled: z.boolean(), account }).strict(),
  'trojan.dirs.delete': z.object({ ids, account }).strict(),
  'trojan.dirs.discover': z.object({}).strict(),
  'trojan.library.get': z.object({}).strict(),
  'trojan.library.set': z.object({ library: trojanLibrarySchema, account }).strict(),
  /** `full` scans every enabled protected directory; `audit` scans `paths` (required). */
  'trojan.scan.start': z.object({ kind: trojanScanKindSchema.exclude(['scheduled']), paths: scanPaths.optional(), account }).strict(),
  'trojan.scan.cancel': z.object({ id: z.number().int().positive(), account }).strict(),
  'trojan.scan.get': z.object({ id: z.number().int().positive() }).strict(),
  'trojan.scan.list': z.object({ kind: trojanScanKindSchema.optional(), offset: z.number().int().min(0), limit: z.number().int().min(1).max(100) }).strict(),
  /** Results of one scan, or of the watch (`scanId` absent and `watch` true), newest first. */
  'trojan.results.list': z.object({ scanId: z.number().int().positive().optional(), watch: z.boolean().optional(), flaggedOnly: z.boolean().default(true), ...page }).strict(),
  'trojan.results.handle': z.object({ ids, action: trojanResultActionSchema, account }).strict(),
  'trojan.isolate.list': z.object(page).strict(),
  'trojan.isolate.source': z.object({ id: z.number().int().positive() }).strict(),
  /** Restore to the original path; an existing file there is refused unless `overwrite`. */
  'trojan.isolate.restore': z.object({ ids, overwrite: z.boolean(), account }).strict(),
  'trojan.isolate.delete': z.object({ ids, account }).strict(),
} as const;

/**
 * A change's answer. `refused` is a message key when nothing changed; `detail` carries what the
 * key's text cannot know (the YARA compiler's message, the paths that already exist on restore).
 */
export const trojanChangeSchema = z.object({
  changed: z.number().int(),
  ids: z.array(z.number().int()),
  refused: z.string().nullable(),
  detail: z.string().default(''),
  /** Per-id failures of a partly done batch (a file gone, a folder not writable): id → message key. */
  failed: z.record(z.string(), z.string()).default({}),
});
export type TrojanChange = z.infer<typeof trojanChangeSchema>;

export const trojanAgentResults = {
  'trojan.status': trojanStatusSchema,
  'trojan.settings.get': trojanSettingsSchema,
  'trojan.settings.set': trojanChangeSchema,
  'trojan.dirs.list': z.object({ total: z.number().int(), list: z.array(trojanDirSchema) }),
  'trojan.dirs.add': trojanChangeSchema,
  'trojan.dirs.edit': trojanChangeSchema,
  'trojan.dirs.set_enabled': trojanChangeSchema,
  'trojan.dirs.delete': trojanChangeSchema,
  'trojan.dirs.discover': z.object({ list: z.array(trojanSiteRootSchema) }),
  'trojan.library.get': trojanLibrarySchema.extend({ ruleCount: z.number().int(), hashCount: z.number().int() }),
  'trojan.library.set': trojanChangeSchema,
  /** The started scan, or `refused` `trojan_scan_running` with the running one; `detail` names the refused audit path. */
  'trojan.scan.start': z.object({ scan: trojanScanSchema.nullable(), refused: z.string().nullable(), detail: z.string().default('') }),
  'trojan.scan.cancel': trojanChangeSchema,
  'trojan.scan.get': trojanScanSchema.nullable(),
  'trojan.scan.list': z.object({ total: z.number().int(), list: z.array(trojanScanSchema) }),
  'trojan.results.list': z.object({ total: z.number().int(), list: z.array(trojanResultSchema) }),
  'trojan.results.handle': trojanChangeSchema,
  'trojan.isolate.list': z.object({ total: z.number().int(), list: z.array(trojanIsolatedSchema) }),
  'trojan.isolate.source': trojanSourceSchema.nullable(),
  'trojan.isolate.restore': trojanChangeSchema,
  'trojan.isolate.delete': trojanChangeSchema,
} as const;

/* Console calls. GET queries arrive as strings. */
const idParam = { id: positiveIntParam('bad_request') };
export const trojanListQuerySchema = z.object({ keyword: keywordParam, page: positiveIntParam('bad_request').optional(), size: pageSizeParam, ...stampParam }).strict();
export const trojanIdQuerySchema = z.object({ ...idParam, ...stampParam }).strict();
export const trojanResultsQuerySchema = z.object({
  scan: positiveIntParam('bad_request').optional(),
  /** `1`: the watch's results instead of a scan's. */
  watch: z.enum(['0', '1'], { message: 'bad_request' }).optional(),
  /** `0`: every reported file, low risk and unscanned too. */
  flagged: z.enum(['0', '1'], { message: 'bad_request' }).optional(),
  keyword: keywordParam, page: positiveIntParam('bad_request').optional(), size: pageSizeParam, ...stampParam,
}).strict();
export const trojanScansQuerySchema = z.object({ page: positiveIntParam('bad_request').optional(), size: pageSizeParam, ...stampParam }).strict();
export const trojanIdsBodySchema = z.object({ ids }).strict();
export const trojanSetEnabledBodySchema = z.object({ ids, enabled: z.boolean({ message: 'bad_request' }) }).strict();
export const trojanSettingsBodySchema = z.object({ settings: trojanSettingsSchema }).strict();
export const trojanDirsAddBodySchema = z.object({ dirs: z.array(trojanDirInputSchema).min(1, 'trojan_path_required').max(100) }).strict();
export const trojanDirEditBodySchema = z.object({ id: z.number().int().positive(), remark: z.string().max(200, 'trojan_remark_too_long') }).strict();
export const trojanLibraryBodySchema = z.object({ library: trojanLibrarySchema }).strict();
export const trojanAuditScanBodySchema = z.object({ paths: scanPaths }).strict();
export const trojanScanIdBodySchema = z.object({ id: z.number().int().positive() }).strict();
export const trojanHandleBodySchema = z.object({ ids, action: trojanResultActionSchema }).strict();
export const trojanRestoreBodySchema = z.object({ ids, overwrite: z.boolean({ message: 'bad_request' }) }).strict();
