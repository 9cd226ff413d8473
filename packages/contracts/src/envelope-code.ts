/*
 * The envelope's codes and shape, without zod (the web app's first screen needs them; the schema,
 * which would pull zod into the sign-in page's JavaScript, is in envelope.ts).
 */

/**
 * Response envelope codes, as the specs define them:
 * 0 success (the client shows `msg` when it is not empty), 1 warning, 200 pass-through,
 * 500 rejected silently, anything else an error (we use 2).
 * Choice: reads answer code 0 with an empty msg, so the client shows no modal for them.
 */
export const Code = { ok: 0, warning: 1, error: 2, pass: 200, silent: 500 } as const;
export type Envelope<T = unknown> = { code: number; msg: string; data?: T; onok?: number; lang?: string };
