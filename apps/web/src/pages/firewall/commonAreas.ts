import { useQuery } from '@tanstack/react-query';
import { areaName, commonAreaIdOf, type AreaLang } from '@rampart/contracts';
import { get } from '../../api/http.ts';

/** A common area as the pickers see it (GET /resource/area?kind=common). */
export interface CommonAreaChoice {
  code: string;
  kind: 'common';
  name: string;
  members: string[];
}

export const commonAreaChoicesKey = ['resource', 'area', 'common'] as const;

/**
 * Every common area, for the rule modal's picker and the rules' tags. Read through /resource/area,
 * which any signed-in role may call (a technician edits rules without the system permission).
 */
export function useCommonAreas(): CommonAreaChoice[] {
  const query = useQuery({
    queryKey: commonAreaChoicesKey,
    queryFn: () => get<{ list: CommonAreaChoice[] }>('/resource/area', { query: { kind: 'common' }, quiet: true }),
    staleTime: 30_000,
  });
  return query.data?.list ?? [];
}

/** The name of a rule's area: a country or province in `lang`, or a common area by the name it was given. */
export function ruleAreaName(code: string, lang: AreaLang, common: readonly CommonAreaChoice[]): string {
  if (commonAreaIdOf(code) === null) return areaName(code, lang);
  return common.find((area) => area.code === code)?.name ?? code;
}
