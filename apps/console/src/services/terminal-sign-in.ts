import type { LoginResult } from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { ConsoleContext } from '../context.ts';
import { insertTerminal } from '../db/trust-terminals.ts';
import type { UserRow } from '../db/users.ts';
import { raiseLoginNotice } from '../portal/login-notice.ts';
import { hashToken, newToken } from '../security/tokens.ts';
import { recordTerminalEvent } from './trust-terminals.ts';

/**
 * A completed sign-in (password and, when asked, verification — the same rules and rate limits as
 * the console's) for the trust terminal: a terminal token instead of a console session. It is kept
 * in its own table, so no console route accepts it (they look in `sessions`): it can do nothing but
 * start, beat and stop its own hold. The address is not trusted yet: the terminal shows whether it
 * looks shared first, and `/terminal/start` begins the hold.
 */
export async function signInTerminal(ctx: ConsoleContext, request: FastifyRequest, user: UserRow, now: number): Promise<LoginResult> {
  const token = newToken();
  insertTerminal(ctx.db, {
    token_hash: hashToken(token), user_id: user.id, ip: request.ip, user_agent: String(request.headers['user-agent'] ?? '').slice(0, 256), started_at: now,
  });
  recordTerminalEvent(ctx, 'terminal.signed_in', { username: user.username, ip: request.ip }, 'info');
  // The login notice (system alerts) is about any sign-in, so a terminal's counts too.
  await raiseLoginNotice(ctx, { user, ip: request.ip, now }).catch(() => undefined);
  return { token, expires_at: null };
}
