import type { Action, Language, Permission, PermissionKey, RoleId } from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { TerminalWithAccount } from '../db/trust-terminals.ts';

/**
 * What a route requires, declared beside the route in its `config.access`:
 * - public: anyone (sign-in, registration);
 * - session: any signed-in account;
 * - permission: a signed-in account whose role holds `key` with `action`;
 * - permissions: the same, decided from the validated request (a module switch needs the key
 *   of the module it switches) — the hook checks it once validation has run;
 * - terminal: a live trust-terminal token (never a console session; console routes never take one).
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'terminal' }
  | { kind: 'session' }
  | { kind: 'permission'; key: PermissionKey; action: Action }
  | { kind: 'permissions'; resolve: (request: FastifyRequest) => { key: PermissionKey; action: Action }[] };

export const publicAccess: Access = { kind: 'public' };
export const sessionAccess: Access = { kind: 'session' };
export const terminalAccess: Access = { kind: 'terminal' };
export function perm(key: PermissionKey, action: Action): Access {
  return { kind: 'permission', key, action };
}

export interface SessionUser {
  id: number;
  username: string;
  role: RoleId;
  permissions: Permission[];
  lang: Language;
  tokenHash: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** The route answers before the console is registered (sign-in page config, agreement, registration). */
    beforeRegistration?: boolean;
    /** false: the route records its own event, so the audit trail leaves it out. */
    audit?: boolean;
  }
  interface FastifyRequest {
    user: SessionUser | null;
    /** The trust terminal a `terminal` route was called with (its row, with the account). */
    terminal: TerminalWithAccount | null;
    lang: Language;
  }
}
