import { z } from 'zod';
import { eventLevelSchema, eventModuleSchema } from './events.ts';
import { isIpAddress } from './validators.ts';
import { keywordParam, pageSizeParam, positiveIntParam, stampParam } from './query-params.ts';

/* Queries and results of the /log calls (event log, notices, request snapshots). */

/** Periods of the log page, counted in the server's local days. */
export const logPeriods = ['today', 'yesterday', 'before_yesterday', '7d', '30d', '90d'] as const;
export const logPeriodSchema = z.enum(logPeriods, { message: 'log_period_invalid' });
export type LogPeriod = z.infer<typeof logPeriodSchema>;

const stamp = stampParam;
const positiveInt = positiveIntParam;
const ipFilter = z.string().trim().max(64, 'ip_invalid').refine((v) => v === '' || isIpAddress(v), 'ip_invalid').optional();
const keyword = keywordParam;
const pageSize = pageSizeParam;

export const logFiltersShape = {
  period: logPeriodSchema.default('today'),
  module: eventModuleSchema.optional(),
  level: eventLevelSchema.optional(),
  ip: ipFilter,
  keyword,
};

export const logSystemQuerySchema = z
  .object({ ...logFiltersShape, before: positiveInt('bad_request').optional(), size: pageSize, ...stamp })
  .strict();
export type LogSystemQuery = z.input<typeof logSystemQuerySchema>;

/** One row of the event log, in the reader's language. */
export const logRowSchema = z.object({
  id: z.number().int(),
  time: z.number().int(),
  account: z.string(),
  module: z.string(),
  source: z.string(),
  ip: z.string(),
  level: z.string(),
  content: z.string(),
  solution: z.string(),
  detail: z.string(),
  /** How many times it happened: 1, or more when simple log mode folded repeats into this row. */
  repeats: z.number().int(),
});
export type LogRow = z.infer<typeof logRowSchema>;
export const logPageSchema = z.object({ list: z.array(logRowSchema), more: z.boolean() });
export type LogPage = z.infer<typeof logPageSchema>;

export const logBaseSchema = z.object({
  modules: z.array(z.string()),
  levels: z.array(z.string()),
  periods: z.array(logPeriodSchema),
  mode: z.string(),
  keep_days: z.number().int(),
  events: z.number().int(),
  bytes: z.number().int(),
});
export type LogBase = z.infer<typeof logBaseSchema>;

/** Starting a download takes the filters; following one takes its job id. */
export const logDownloadQuerySchema = z.union([
  z.object({ job: z.string().regex(/^[a-f0-9]{16}$/, 'download_not_found'), ...stamp }).strict(),
  z.object({ ...logFiltersShape, ...stamp }).strict(),
]);
export const downloadJobQuerySchema = z.object({ job: z.string().regex(/^[a-f0-9]{16}$/, 'download_not_found'), ...stamp }).strict();

export const downloadStates = ['packing', 'ready', 'failed', 'cancelled'] as const;
export const downloadJobSchema = z.object({
  job: z.string(),
  state: z.enum(downloadStates),
  rows: z.number().int(),
  file: z.string().nullable(),
  /** Packed files are kept 24 hours. */
  expires_at: z.number().int().nullable(),
});
export type DownloadJob = z.infer<typeof downloadJobSchema>;
export const downloadKeepMs = 24 * 60 * 60 * 1000;

export const archiveQuerySchema = z.object({ file: z.string().regex(/^rampart-log-[0-9a-f]{16}\.csv\.gz$/, 'download_not_found'), ...stamp }).strict();

/* Notices. */
export const noticeListQuerySchema = z
  .object({ page: positiveInt('bad_request').optional(), size: pageSize, ...stamp })
  .strict();
export const noticeIdQuerySchema = z.object({ id: positiveInt('notice_not_found'), ...stamp }).strict();
/** `ids` is a comma-separated id list, or `all`. */
export const noticeIdsQuerySchema = z
  .object({
    ids: z.union([
      z.literal('all'),
      z.string().regex(/^[1-9]\d{0,15}(,[1-9]\d{0,15}){0,999}$/, 'notice_ids_invalid').transform((v) => v.split(',').map(Number)),
    ], { message: 'notice_ids_invalid' }),
    ...stamp,
  })
  .strict();

export const noticeRowSchema = z.object({ id: z.number().int(), title: z.string(), add_time: z.number().int(), readed: z.number().int() });
export const noticeListResultSchema = z.object({ count: z.number().int(), list: z.array(noticeRowSchema).nullable() });
export type NoticeListResult = z.infer<typeof noticeListResultSchema>;
export const noticeInfoSchema = noticeRowSchema.extend({ content: z.string() });
export type NoticeInfo = z.infer<typeof noticeInfoSchema>;

/* Request snapshots. */
export const photoListQuerySchema = z
  .object({ period: logPeriodSchema.default('7d'), ip: ipFilter, keyword, before: positiveInt('bad_request').optional(), size: pageSize, ...stamp })
  .strict();
export const photoIdQuerySchema = z.object({ id: positiveInt('photo_not_found'), ...stamp }).strict();
export const photoBaseSchema = z.object({ count: z.number().int(), keep_days: z.number().int() });
