import { z } from 'zod';

/**
 * Request snapshots ("photos"): what website protection saw when it stopped a request.
 * `kind` is the event kind of the detection; `post_data` is cut at the snapshot size limit.
 */
export const photoInputSchema = z
  .object({
    time: z.number().int().nonnegative().optional(),
    site: z.string().max(255).default(''),
    ip: z.string().max(64),
    method: z.string().max(16),
    url: z.string().max(8192),
    headers: z.string().max(16384).default(''),
    post_data: z.string().max(1_000_000).default(''),
    kind: z.string().max(64).default(''),
  })
  .strict();
export type PhotoInput = z.input<typeof photoInputSchema>;

export const photoRecordSchema = z.object({
  id: z.number().int(),
  time: z.number().int(),
  site: z.string(),
  ip: z.string(),
  method: z.string(),
  url: z.string(),
  headers: z.string(),
  post_data: z.string(),
  kind: z.string(),
});
export type PhotoRecord = z.infer<typeof photoRecordSchema>;

export const photoQuerySchema = z
  .object({
    from: z.number().int().optional(),
    to: z.number().int().optional(),
    ip: z.string().max(64).optional(),
    keyword: z.string().min(1).max(100).optional(),
    before: z.number().int().positive().optional(),
    limit: z.number().int().min(1).max(200),
    /** List pages carry at most this many characters of post_data and headers. */
    preview: z.number().int().min(0).max(4096).optional(),
  })
  .strict();
export type PhotoQuery = z.infer<typeof photoQuerySchema>;

export const photoPageSchema = z.object({ list: z.array(photoRecordSchema), more: z.boolean() });
export type PhotoPage = z.infer<typeof photoPageSchema>;
