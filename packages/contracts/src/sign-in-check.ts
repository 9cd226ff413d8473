import { z } from 'zod';

/*
 * Sign-in verification (the second step the login check mode asks for).
 *
 * POST /login with the right password answers either a session (LoginResult) or, when the check
 * mode asks for verification, a challenge: a short-lived single-purpose ticket and the ways the
 * user can prove it is them. Then:
 *   POST /login/code   {ticket, object}        sends a code to one receiving object
 *   POST /login/verify {ticket, object, code}  checks it (object 'totp' = authenticator app) → session
 * The paths of this step are not in the spec; these live beside POST /login on purpose.
 *
 * Enrolling an authenticator app (signed in, for one's own account):
 *   GET  /login/totp          {enabled}
 *   POST /login/totp/new      {password}  → {secret, uri}  (shown this once, inactive until confirmed)
 *   POST /login/totp/confirm  {code}
 *   POST /login/totp/disable  {code}
 */

export const verificationChannelIds = ['sms', 'wechat', 'email'] as const;
export type VerificationChannelId = (typeof verificationChannelIds)[number];

/** The pseudo receiving object that stands for the authenticator app. */
export const totpObjectId = 'totp';

/** Codes are six digits, both the sent ones and the authenticator's. */
export const verificationCodePattern = /^\d{6}$/;

/** A configured recipient, masked (138****1234, a***@example.com). */
export const receivingObjectSchema = z.object({
  id: z.string(),
  channel: z.enum(verificationChannelIds),
  masked: z.string(),
});
export type ReceivingObjectView = z.infer<typeof receivingObjectSchema>;

/** What POST /login answers instead of a session when the check mode asks for verification. */
export const loginChallengeSchema = z.object({
  verify: z.literal(true),
  /** Opaque; good for this one sign-in only. */
  ticket: z.string(),
  /** Seconds the ticket stays good. */
  expires_in: z.number().int(),
  objects: z.array(receivingObjectSchema),
  /** The account has an authenticator app enrolled. */
  totp: z.boolean(),
});
export type LoginChallenge = z.infer<typeof loginChallengeSchema>;

const ticketSchema = z.string({ message: 'vc_ticket_invalid' }).min(1, 'vc_ticket_invalid').max(128, 'vc_ticket_invalid');
const objectSchema = z.string({ message: 'vc_object_required' }).trim().min(1, 'vc_object_required').max(64, 'vc_object_required');
const codeSchema = z
  .string({ message: 'vc_code_required' })
  .trim()
  .min(1, 'vc_code_required')
  .max(16, 'vc_code_format')
  .regex(verificationCodePattern, 'vc_code_format');

export const sendCodeBodySchema = z.object({ ticket: ticketSchema, object: objectSchema }).strict();
export type SendCodeBody = z.infer<typeof sendCodeBodySchema>;

export const sendCodeResultSchema = z.object({
  /** Seconds before another code may be sent (the countdown on the button). */
  resend_in: z.number().int(),
  /** Seconds the sent code stays good. */
  expires_in: z.number().int(),
});
export type SendCodeResult = z.infer<typeof sendCodeResultSchema>;

export const verifyBodySchema = z.object({ ticket: ticketSchema, object: objectSchema, code: codeSchema }).strict();
export type VerifyBody = z.infer<typeof verifyBodySchema>;

export const totpStatusSchema = z.object({ enabled: z.boolean() });
export type TotpStatus = z.infer<typeof totpStatusSchema>;

/** Starting an enrolment asks for the password again: a stolen session alone cannot add a factor. */
export const totpNewBodySchema = z
  .object({ password: z.string({ message: 'vc_password_required' }).min(1, 'vc_password_required').max(128, 'password_old_wrong') })
  .strict();
export type TotpNewBody = z.infer<typeof totpNewBodySchema>;

/** The new secret (base32) and its otpauth:// URI; the only time the secret leaves the console. */
export const totpEnrolmentSchema = z.object({ secret: z.string(), uri: z.string() });
export type TotpEnrolment = z.infer<typeof totpEnrolmentSchema>;

export const totpCodeBodySchema = z.object({ code: codeSchema }).strict();
export type TotpCodeBody = z.infer<typeof totpCodeBodySchema>;
