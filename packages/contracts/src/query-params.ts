import { z } from 'zod';

/* Pieces of GET query schemas shared by every list page: values arrive as strings. */

/** The cache-busting stamp the web client adds to GETs. */
export const stampParam = { t: z.string().max(20).regex(/^\d*$/, 'bad_request').optional() };
export const positiveIntParam = (message: string) => z.string().regex(/^[1-9]\d{0,15}$/, message).transform(Number);
export const keywordParam = z.string().trim().max(100, 'keyword_too_long').optional();
export const pageSizeParam = z
  .string()
  .regex(/^\d{1,3}$/, 'bad_request')
  .transform(Number)
  .pipe(z.number().min(1, 'bad_request').max(100, 'bad_request'))
  .optional();
