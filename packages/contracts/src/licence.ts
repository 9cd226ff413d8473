import { z } from 'zod';
import { licenceCodeSchema } from './validators.ts';

/**
 * The licence authority's HTTP API (apps/licence), spoken by the console.
 * POST /v1/activate  LicenceActivateRequest → LicenceActivateResponse
 * POST /v1/status    LicenceStatusRequest   → LicenceStatusResponse
 * Errors answer a non-2xx status with {error: LicenceError}.
 */
export const deviceIdSchema = z.string().regex(/^[a-f0-9]{32}$/);

export const licenceActivateRequestSchema = z.object({
  code: licenceCodeSchema,
  device_id: deviceIdSchema,
  /** The user confirmed moving the code here from another device (uses one relocation). */
  confirm_move: z.boolean().default(false),
}).strict();
export type LicenceActivateRequest = z.input<typeof licenceActivateRequestSchema>;

export const licenceGrantSchema = z.object({
  code: z.string(),
  product_id: z.string(),
  device_id: deviceIdSchema,
  expires_at: z.number().int(),
  transfers_left: z.number().int().nonnegative(),
});
export type LicenceGrant = z.infer<typeof licenceGrantSchema>;

export const licenceActivateResponseSchema = z.discriminatedUnion('status', [
  licenceGrantSchema.extend({ status: z.literal('activated') }),
  z.object({ status: z.literal('need_confirm'), transfers_left: z.number().int().nonnegative() }),
]);
export type LicenceActivateResponse = z.infer<typeof licenceActivateResponseSchema>;

export const licenceStatusRequestSchema = z.object({ code: licenceCodeSchema, device_id: deviceIdSchema }).strict();
export type LicenceStatusRequest = z.input<typeof licenceStatusRequestSchema>;
export const licenceStatusResponseSchema = licenceGrantSchema.extend({ status: z.literal('active') });
export type LicenceStatusResponse = z.infer<typeof licenceStatusResponseSchema>;

/**
 * unknown: no such code (404) · expired: past its expiry (410) · no_transfers: bound elsewhere with
 * no relocations left (409) · moved: status asked by a device the code no longer belongs to (409) ·
 * bad_request (400) · rate_limited (429) · not_found: no such route (404) · internal: the authority failed (500).
 */
export const licenceErrors = ['unknown', 'expired', 'no_transfers', 'moved', 'bad_request', 'rate_limited', 'not_found', 'internal'] as const;
export const licenceErrorSchema = z.object({ error: z.enum(licenceErrors) });
export type LicenceError = (typeof licenceErrors)[number];
