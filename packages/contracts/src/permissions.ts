import { z } from 'zod';
import { actions, permissionKeys, roleIds } from './permission-keys.ts';

// The keys, roles and the check itself live in permission-keys.ts (no zod: the sign-in page needs them).
export {
  actions, can, permissionKeys, permissionsOf, roleCan, roleIds, type Action, type Permission, type PermissionKey, type RoleId,
} from './permission-keys.ts';

export const permissionKeySchema = z.enum(permissionKeys);
export const actionSchema = z.enum(actions);
export const roleIdSchema = z.enum(roleIds);
export const permissionSchema = z.object({ perm_id: permissionKeySchema, actions: z.array(actionSchema) });
