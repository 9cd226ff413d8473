import type { ConsoleContext } from '../context.ts';
import { getSetting } from '../db/settings.ts';
import type { SignedIn } from '../services/after-sign-in.ts';
import { clientAddress } from './addresses.ts';

/** The portal's login notice: when it is on, every completed panel sign-in raises a notice. */
export async function raiseLoginNotice(ctx: ConsoleContext, signedIn: SignedIn): Promise<void> {
  if (!getSetting(ctx.db, 'panel_login_notice')) return;
  await ctx.agent.call('notices.raise', { kind: 'panel_login', params: { account: signedIn.user.username, ip: clientAddress(signedIn.ip) } });
}
