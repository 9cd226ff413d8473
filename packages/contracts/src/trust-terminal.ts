import { z } from 'zod';

/*
 * The trust terminal (spec: "trust terminal software"; Yunsuo's 信任终端): a page the console serves
 * at /trust, and `npx rampart trust`, that an account of any role (role `other` can use nothing else)
 * signs into. While it runs it beats, and each beat keeps the address it beats from on the super
 * whitelist for a few minutes more, so an administrator on a changing home or office address is never
 * locked out by the server's own protection.
 *
 * Readings written down here:
 * - "the entry ends a few minutes after the last beat (or at a validity the account chose)": the
 *   account chooses how long the address stays trusted at least — only while the terminal runs (the
 *   default), or 1, 8 or 24 hours from the start even if it is closed. Beats extend past that.
 * - An address another source already lists (added by hand or at panel sign-in) is left as it is:
 *   the terminal then shows "already trusted" and holds nothing.
 * - A terminal whose beats stopped (a laptop asleep) may resume within 12 hours with the same token;
 *   the gap is an event. After that, or once ended, it must sign in again.
 * - A change of address between beats ends the hold on the old one and asks the terminal to start
 *   again, so the proxy check below runs for the new address too.
 */

/** Seconds between beats. */
export const terminalBeatSeconds = 30;
/** Seconds an address stays trusted after the last beat: six beats may be lost before it lapses. */
export const terminalGraceSeconds = 180;
/** Hours a terminal whose beats stopped may resume without signing in again. */
export const terminalResumeHours = 12;

/** 0: only while the terminal runs. */
export const terminalKeepHours = [0, 1, 8, 24] as const;

export const terminalStartBodySchema = z
  .object({
    keep_hours: z.union([z.literal(0), z.literal(1), z.literal(8), z.literal(24)], { message: 'terminal_keep_invalid' }),
    /** The account has read that its address looks shared (a proxy) and trusts it anyway. */
    accept_proxy: z.boolean({ message: 'terminal_accept_invalid' }).default(false),
  })
  .strict();
export type TerminalStartBody = z.infer<typeof terminalStartBodySchema>;

/** Why an address looks shared: it came through a proxy (these headers), or another account's terminal beats from it. */
export const terminalAddressSchema = z.object({
  ip: z.string(),
  /** Country and province codes (geo-IP); empty for private addresses or when the data is missing. */
  areas: z.array(z.string()),
  /** Loopback: the browser is on the server itself or comes through a tunnel, and trusting it adds nothing. */
  local: z.boolean(),
  proxy_headers: z.array(z.string()),
  shared_with: z.number().int(),
});
export type TerminalAddress = z.infer<typeof terminalAddressSchema>;

export const terminalStates = ['signed_in', 'trusted', 'covered', 'lapsed'] as const;
export const terminalStateSchema = z.enum(terminalStates);
export type TerminalState = z.infer<typeof terminalStateSchema>;

/** What the terminal shows after each call. */
export const terminalStatusSchema = z.object({
  account: z.string(),
  ip: z.string(),
  state: terminalStateSchema,
  started_at: z.number().int(),
  last_beat: z.number().int(),
  /** The end of the address's entry while the terminal holds it; null when nothing is held. */
  trusted_until: z.number().int().nullable(),
  keep_until: z.number().int().nullable(),
  beat_seconds: z.number().int(),
  grace_seconds: z.number().int(),
});
export type TerminalStatus = z.infer<typeof terminalStatusSchema>;

/** A row of the terminals table on the super whitelist tab. */
export const terminalRowSchema = z.object({
  id: z.number().int(),
  account: z.string(),
  ip: z.string(),
  areas: z.array(z.string()),
  proxied: z.boolean(),
  state: terminalStateSchema,
  started_at: z.number().int(),
  last_beat: z.number().int(),
  trusted_until: z.number().int().nullable(),
  keep_until: z.number().int().nullable(),
  user_agent: z.string(),
});
export type TerminalRow = z.infer<typeof terminalRowSchema>;

export const terminalIdQuerySchema = z.object({ id: z.coerce.number({ message: 'terminal_not_found' }).int('terminal_not_found').positive('terminal_not_found') }).strict();

/** Sign-in clients: the console, or the trust terminal (a token that can do nothing but beat). */
export const signInClients = ['console', 'terminal'] as const;
export const signInClientSchema = z.enum(signInClients);
export type SignInClient = z.infer<typeof signInClientSchema>;
