import type { ConsoleContext } from '../context.ts';
import { clientAddress, isLoopback } from '../portal/addresses.ts';
import { getSetting } from '../db/settings.ts';
import { trustExpiry } from '../routes/system-trust.ts';
import type { SignedIn } from './after-sign-in.ts';

/**
 * The automatic add at panel sign-in (system settings, trust_terminal tab): when it is on, the
 * address of a completed sign-in joins the super whitelist for the configured validity, recorded
 * as added by that account. Loopback needs no trust, and an address a live entry already covers
 * is left alone (its entry keeps its own validity and remark).
 */
export async function trustOnSignIn(ctx: ConsoleContext, signedIn: SignedIn): Promise<void> {
  const auto = getSetting(ctx.db, 'trust_auto_add');
  const ip = clientAddress(signedIn.ip);
  if (!auto.enabled || !ip || isLoopback(ip)) return;
  if ((await ctx.agent.call('trust.check', { ip })).trusted) return;
  await ctx.agent.call('trust.add', {
    addresses: [ip],
    added_by: signedIn.user.username,
    remark: '',
    expires_at: trustExpiry(signedIn.now, auto.days),
    source: 'sign_in',
  });
}
