import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import type { PermissionKey } from '@rampart/contracts';
import { useCan } from '../session/useUserInfo.ts';

/** The route guard: a route the role may not `get` goes to /403. */
export function RequirePermission({ permission, children }: { permission: PermissionKey; children?: ReactNode }) {
  const allowed = useCan(permission, 'get');
  if (!allowed) return <Navigate to="/403" replace />;
  return children ?? <Outlet />;
}
