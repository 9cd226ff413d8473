/*
 * Permission keys, actions, roles and the one permission check, without zod: the web app's first
 * screen needs them, and a module that also built schemas would pull zod into the sign-in page's
 * JavaScript. The schemas are in permissions.ts.
 */

/** Permission keys, one per console section (plus the two sub-keys the specs name). */
export const permissionKeys = [
  'home', 'system', 'trojan', 'remote', 'account', 'tamper', 'process', 'firewall',
  'website', 'cloud', 'audit', 'audit_patch', 'dynamic', 'log', 'log_photo',
] as const;
export type PermissionKey = (typeof permissionKeys)[number];

export const actions = ['add', 'delete', 'edit', 'query', 'get', 'enable', 'disable', 'import', 'export'] as const;
export type Action = (typeof actions)[number];

export const roleIds = ['admin', 'technician', 'auditor', 'other'] as const;
export type RoleId = (typeof roleIds)[number];

/** The shape of `permissionSchema` in permissions.ts. */
export type Permission = { perm_id: PermissionKey; actions: Action[] };

const readOnly: Action[] = ['query', 'get', 'export'];

/**
 * Which role holds which key. The specs give only the scope of each role; the mapping is ours:
 * - admin: every key, every action.
 * - technician: every key except `system` (system settings), every action.
 * - auditor: the event log only (`log`, `log_photo`), read and export — an auditor inspects, never changes.
 * - other: nothing in the console; such accounts sign in only through the trusted terminal,
 *   so a console sign-in answers "this account has no permission".
 */
export function permissionsOf(role: RoleId): Permission[] {
  switch (role) {
    case 'admin':
      return permissionKeys.map((perm_id) => ({ perm_id, actions: [...actions] }));
    case 'technician':
      return permissionKeys.filter((k) => k !== 'system').map((perm_id) => ({ perm_id, actions: [...actions] }));
    case 'auditor':
      return (['log', 'log_photo'] as const).map((perm_id) => ({ perm_id, actions: [...readOnly] }));
    case 'other':
      return [];
  }
}

/** The one permission check, used by the console's hook and by the web app's guards alike. */
export function can(permissions: readonly Permission[], key: PermissionKey, action: Action): boolean {
  return permissions.some((p) => p.perm_id === key && p.actions.includes(action));
}

export function roleCan(role: RoleId, key: PermissionKey, action: Action): boolean {
  return can(permissionsOf(role), key, action);
}
