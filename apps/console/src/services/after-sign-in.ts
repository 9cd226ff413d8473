import type { ConsoleContext } from '../context.ts';
import type { UserRow } from '../db/users.ts';
import { trustOnSignIn } from './trust-auto-add.ts';
import { raiseLoginNotice } from '../portal/login-notice.ts';

export interface SignedIn {
  user: UserRow;
  ip: string;
  now: number;
}

/**
 * What follows a completed sign-in (password and, when asked, verification): each settings area
 * that reacts to a sign-in (login notice, automatic super-whitelist add, ...) adds its call here.
 * A failure in one of them never fails the sign-in.
 */
export async function afterSignIn(ctx: ConsoleContext, signedIn: SignedIn): Promise<void> {
  await trustOnSignIn(ctx, signedIn).catch(() => undefined);
  await raiseLoginNotice(ctx, signedIn).catch(() => undefined);
}
