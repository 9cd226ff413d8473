import { z } from 'zod';

/**
 * Response envelope codes, as the specs define them:
 * 0 success (the client shows `msg` when it is not empty), 1 warning, 200 pass-through,
 * 500 rejected silently, anything else an error (we use 2).
 * Choice: reads answer code 0 with an empty msg, so the client shows no modal for them.
 */
export const Code = { ok: 0, warning: 1, error: 2, pass: 200, silent: 500 } as const;

export const envelopeSchema = z.object({
  code: z.number().int(),
  msg: z.string(),
  data: z.unknown().optional(),
  /** Non-zero: the success modal stays open with an "I know" button. */
  onok: z.number().int().optional(),
  /** The language the server answered in; the client adopts it when it differs from its own. */
  lang: z.string().optional(),
});
export type Envelope<T = unknown> = { code: number; msg: string; data?: T; onok?: number; lang?: string };
