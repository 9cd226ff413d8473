import { useQuery } from '@tanstack/react-query';
import type { HomeIndex } from '@rampart/contracts';
import { fetchHomeIndex } from '../../api/endpoints.ts';

export const homeIndexKey = ['home', 'index'] as const;

export function useHomeIndex() {
  return useQuery<HomeIndex>({ queryKey: homeIndexKey, queryFn: fetchHomeIndex });
}
