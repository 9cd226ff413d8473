import { useQuery } from '@tanstack/react-query';
import { entryCovers, parseAddressEntry, type WebsiteLists } from '@rampart/contracts';
import { get } from '../../api/http.ts';
import { useCan } from '../../session/useUserInfo.ts';

/**
 * The address the console sees this browser at. The website calls don't answer it, so it is read
 * where the console already tells it: the super whitelist's page (`client_ip`, its quick fill). A
 * user without the system permission gets null, and the own-IP warning is not shown to them.
 * TODO(console): a website call that answers the caller's address would reach every website user.
 */
export function useOwnAddress(): string | null {
  const allowed = useCan('system', 'get');
  const query = useQuery({
    queryKey: ['website', 'own-address'],
    queryFn: () => get<{ client_ip: string }>('/system/trust/ip', { query: { page: 1, size: 10 }, quiet: true }),
    enabled: allowed,
    staleTime: Infinity,
    retry: false,
  });
  return query.data?.client_ip || null;
}

/**
 * The entries of the enabled blacklists (IP / area blacklist, malicious IP blacklist) that cover
 * `address`: saved, they would refuse the administrator's own requests to the protected sites
 * (spec 5: "blacklisting your own local IP would block yourself").
 */
export function entriesBlocking(lists: Pick<WebsiteLists, 'ip_black' | 'malicious'>, address: string): string[] {
  const blacklists = [lists.ip_black, lists.malicious].filter((list) => list.enabled);
  return blacklists.flatMap((list) => list.ips).filter((raw) => {
    const entry = parseAddressEntry(raw);
    return entry !== null && entryCovers(entry, address);
  });
}
