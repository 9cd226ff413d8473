import type { LicenceError, MessageKey, RegisterResult } from '@rampart/contracts';
import type { ConsoleContext } from '../context.ts';
import { transaction } from '../db/database.ts';
import { saveRegistration } from '../db/registration.ts';
import { createUser, findFirstAdmin } from '../db/users.ts';
import { generatePassword, hashPassword } from '../security/passwords.ts';

export const adminAccountName = 'admin';

const errorMessages: Record<LicenceError | 'unreachable', MessageKey> = {
  unknown: 'licence_unknown',
  expired: 'licence_code_expired',
  no_transfers: 'licence_no_transfers',
  moved: 'licence_moved',
  bad_request: 'register_failed',
  rate_limited: 'rate_limited',
  // A wrong authority URL or a failing authority: for the user, the licence server cannot be used.
  not_found: 'licence_authority_unreachable',
  internal: 'licence_authority_unreachable',
  unreachable: 'licence_authority_unreachable',
};

export type RegistrationOutcome = { ok: true; result: RegisterResult } | { ok: false; msg: MessageKey };

/**
 * Activates `code` for this device with the authority and records it. The first registration
 * creates the admin account with a generated password, returned once and never stored in clear.
 * Choice: when an admin already exists (renewal, or re-registering after expiry) its password is
 * left alone and the result says so — a licence code must not be a way to take over the account.
 */
export async function register(ctx: ConsoleContext, code: string, confirmMove: boolean): Promise<RegistrationOutcome> {
  const device = ctx.deviceId();
  const answer = await ctx.licence.activate({ code, device_id: device, confirm_move: confirmMove });
  if (!answer.ok) return { ok: false, msg: errorMessages[answer.error] };
  const grant = answer.value;
  if (grant.status === 'need_confirm') return { ok: true, result: { status: 'need_confirm', transfers_left: grant.transfers_left } };

  const existingAdmin = findFirstAdmin(ctx.db);
  const password = existingAdmin ? null : generatePassword();
  const passwordHash = password ? await hashPassword(password) : null;
  const now = ctx.now();
  transaction(ctx.db, () => {
    saveRegistration(ctx.db, {
      product_key: grant.code, product_id: grant.product_id, device_id: device, expires_at: grant.expires_at,
      transfers_left: grant.transfers_left, registered_at: now, valid: 1,
    });
    if (passwordHash && !findFirstAdmin(ctx.db)) createUser(ctx.db, { username: adminAccountName, passwordHash, role: 'admin', now });
  });
  return {
    ok: true,
    result: { status: 'registered', username: existingAdmin?.username ?? adminAccountName, password, expires_at: grant.expires_at },
  };
}

export { errorMessages as licenceErrorMessages };
