import type { Action, Language, Permission, PermissionKey, RoleId } from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';

/**
 * What a route requires, declared beside the route in its `config.access`:
 * - public: anyone (sign-in, registration);
 * - session: any signed-in account;
 * - permission: a signed-in account whose role holds `key` with `action`;
 * - permissions: the same, decided from the validated request (a module switch needs the key
 *   of the module it switches) — the hook checks it once validation has run.
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'session' }
  | { kind: 'permission'; key: PermissionKey; action: Action }
  | { kind: 'permissions'; resolve: (request: FastifyRequest) => { key: PermissionKey; action: Action }[] };

export const publicAccess: Access = { kind: 'public' };
export const sessionAccess: Access = { kind: 'session' };
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
    lang: Language;
  }
}
