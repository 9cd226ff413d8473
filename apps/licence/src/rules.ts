import type { LicenceError, LicenceGrant } from '@rampart/contracts';
import type { LicenceRecord } from './licence-store.ts';

/** What an activation request should do to a licence, decided from its current row alone. */
export type ActivationDecision =
  | { kind: 'refuse'; error: Extract<LicenceError, 'unknown' | 'expired' | 'no_transfers'> }
  | { kind: 'need_confirm'; transfers_left: number }
  | { kind: 'bind' }
  | { kind: 'already_bound' }
  | { kind: 'move'; from: string };

export function decideActivation(
  licence: LicenceRecord | undefined,
  request: { device_id: string; confirm_move: boolean },
  now: number,
): ActivationDecision {
  if (!licence) return { kind: 'refuse', error: 'unknown' };
  if (now >= licence.expires_at) return { kind: 'refuse', error: 'expired' };
  if (licence.device_id === null) return { kind: 'bind' };
  if (licence.device_id === request.device_id) return { kind: 'already_bound' };
  // No point asking the user to confirm a move that cannot happen.
  if (licence.transfers_left <= 0) return { kind: 'refuse', error: 'no_transfers' };
  if (!request.confirm_move) return { kind: 'need_confirm', transfers_left: licence.transfers_left };
  return { kind: 'move', from: licence.device_id };
}

export type StatusDecision =
  | { kind: 'refuse'; error: Extract<LicenceError, 'unknown' | 'expired' | 'moved'> }
  | { kind: 'active'; licence: LicenceRecord };

export function decideStatus(licence: LicenceRecord | undefined, deviceId: string, now: number): StatusDecision {
  if (!licence) return { kind: 'refuse', error: 'unknown' };
  if (now >= licence.expires_at) return { kind: 'refuse', error: 'expired' };
  if (licence.device_id !== deviceId) return { kind: 'refuse', error: 'moved' };
  return { kind: 'active', licence };
}

export function grantOf(licence: LicenceRecord, deviceId: string): LicenceGrant {
  return {
    code: licence.code,
    product_id: licence.product_id,
    device_id: deviceId,
    expires_at: licence.expires_at,
    transfers_left: licence.transfers_left,
  };
}

/** HTTP status for each error the authority can answer with. */
export const errorStatus: Record<LicenceError, number> = {
  unknown: 404,
  expired: 410,
  no_transfers: 409,
  moved: 409,
  bad_request: 400,
  rate_limited: 429,
  not_found: 404,
  internal: 500,
};
