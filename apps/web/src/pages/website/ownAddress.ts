import { entryCovers, parseAddressEntry, type WebsiteLists } from '@rampart/contracts';
import { useUserInfo } from '../../session/useUserInfo.ts';

/**
 * The address the console sees this browser at, from the signed-in user's own info (GET /info,
 * `client_ip`): every role that can open the website lists gets the own-IP warning, not only those
 * who may read the super whitelist. Null while it loads or when the console could not tell.
 */
export function useOwnAddress(): string | null {
  return useUserInfo().data?.client_ip || null;
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
