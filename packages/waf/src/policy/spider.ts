import { knownSpiders, type SpiderName } from '@rampart/contracts';

/*
 * Fake-spider detection. A request whose user agent names a whitelisted search engine but whose
 * address is not on the spider IP whitelist is checked the way the engines themselves document:
 * reverse DNS of the address must give a name under one of the engine's domains, and that name
 * must resolve forward to the same address. The gateway does the two lookups (asynchronously,
 * cached) and passes the verdict in RequestFacts.spiderDns; these functions are the pure halves.
 */

/** The spider the user agent claims to be, among the enabled ones; null for an ordinary client. */
export function claimedSpider(enabled: readonly SpiderName[], userAgent: string): SpiderName | null {
  if (userAgent === '') return null;
  const lower = userAgent.toLowerCase();
  for (const name of enabled) if (lower.includes(knownSpiders[name].ua)) return name;
  return null;
}

/** Is `host` (a reverse-DNS name) the domain or under it? Trailing dots and case ignored. */
function under(host: string, domain: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === domain || name.endsWith(`.${domain}`);
}

/**
 * The verdict from the lookups: `reverseNames` are the PTR names of the client address,
 * `forwardAddresses` the addresses each of those names resolves to (A and AAAA, all together).
 */
export function verifySpiderDns(spider: SpiderName, clientIp: string, reverseNames: readonly string[], forwardAddresses: readonly string[]): 'genuine' | 'fake' {
  const domains: readonly string[] = knownSpiders[spider].domains;
  const named = reverseNames.some((name) => domains.some((domain) => under(name, domain)));
  const back = forwardAddresses.some((address) => address.toLowerCase() === clientIp.toLowerCase());
  return named && back ? 'genuine' : 'fake';
}
