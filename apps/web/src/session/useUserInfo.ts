import { useQuery } from '@tanstack/react-query';
import { can, type Action, type PermissionKey, type UserInfo } from '@rampart/contracts';
import { fetchUserInfo } from '../api/endpoints.ts';
import { hasToken } from '../storage/token.ts';

export const userInfoKey = ['info'] as const;

/** The signed-in user (GET /info): role, permissions, module flags, demo info. */
export function useUserInfo() {
  return useQuery<UserInfo>({ queryKey: userInfoKey, queryFn: fetchUserInfo, enabled: hasToken(), staleTime: 60_000, retry: false });
}

/** Whether the signed-in role may do `action` on `key`; use it to hide what the role may not use. */
export function useCan(key: PermissionKey, action: Action): boolean {
  const { data } = useUserInfo();
  return data ? can(data.role.permissions, key, action) : false;
}
