/** The three namespaces of a lab, by role; the real names are unique per run (see `Lab.names`). */
export type LabNamespace = 'server' | 'attacker' | 'third';

/** The namespaces that each have their own link (and subnets) to server. */
export type OuterNamespace = Exclude<LabNamespace, 'server'>;

export const OUTER_NAMESPACES: readonly OuterNamespace[] = ['attacker', 'third'];

/** Fixed addresses, so tests and nft rules can name them literally. */
export const LAB_IP = {
  server: {
    toAttacker: { v4: '10.77.1.1', v6: 'fd77:1::1' },
    toThird: { v4: '10.77.2.1', v6: 'fd77:2::1' },
  },
  attacker: { v4: '10.77.1.2', v6: 'fd77:1::2' },
  third: { v4: '10.77.2.2', v6: 'fd77:2::2' },
} as const;

/** Per outer namespace: the subnet number N of 10.77.N.0/24 and fd77:N::/64 on its link to server. */
const SUBNET: Record<OuterNamespace, number> = { attacker: 1, third: 2 };

/** Which link (named by its outer namespace) an address such as `10.77.1.3/24` or `fd77:2::9` belongs to. */
export function linkOfAddress(address: string): OuterNamespace {
  const bare = address.split('/')[0]!.toLowerCase();
  for (const outer of OUTER_NAMESPACES) {
    const n = SUBNET[outer];
    if (bare.startsWith(`10.77.${n}.`) || bare.startsWith(`fd77:${n}:`)) return outer;
  }
  throw new Error(`${address} is on none of the lab's links (10.77.1-2.0/24, fd77:1-2::/64)`);
}

/** Server's addresses on its link to `outer`. */
export function serverIpTowards(outer: OuterNamespace): { v4: string; v6: string } {
  return outer === 'attacker' ? LAB_IP.server.toAttacker : LAB_IP.server.toThird;
}
