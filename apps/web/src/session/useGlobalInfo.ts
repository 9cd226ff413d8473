import { useQuery } from '@tanstack/react-query';
import type { GlobalInfo } from '@rampart/contracts';
import { fetchGlobal } from '../api/endpoints.ts';

export const globalInfoKey = ['global'] as const;

/** GET /global: module flags, the help link, registration state. */
export function useGlobalInfo() {
  return useQuery<GlobalInfo>({ queryKey: globalInfoKey, queryFn: () => fetchGlobal(), staleTime: 60_000 });
}
