import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { knownSpiders, type SpiderName } from '@rampart/contracts';
import { verifySpiderDns } from '@rampart/waf';
import { CappedMap } from './capped-map.ts';

/**
 * The fake-spider check's DNS half (the verdict rule itself is @rampart/waf's verifySpiderDns): the
 * PTR names of the address, then the A (or AAAA) records of those names, which must give the
 * address back. Requests never wait for it: the first request of a claimed spider starts the lookup
 * and gets `undefined`; later ones get the cached verdict.
 *
 * Choices: genuine verdicts are kept 6 h, fake ones 1 h (an address may be reassigned); a lookup
 * that fails for DNS reasons (timeout, SERVFAIL, refused) is no verdict: `undefined` for a minute,
 * then tried again, so a DNS outage neither blocks real crawlers nor floods the resolver. A missing
 * PTR record (NXDOMAIN / no data) IS a verdict: fake. At most 5 PTR names are followed, at most 64
 * lookups run at once (more wait for a later request), and 50,000 verdicts are kept.
 */
export interface SpiderDnsOptions {
  /** DNS servers ('127.0.0.1:5353'); default: the system's (/etc/resolv.conf). */
  servers?: readonly string[];
  /** Per query attempt, ms. */
  timeoutMs?: number;
  tries?: number;
  genuineTtlMs?: number;
  fakeTtlMs?: number;
  failedRetryMs?: number;
  maxVerdicts?: number;
  maxInFlight?: number;
  /** Told of each new verdict (the cluster shares it with the other workers). */
  onVerdict?: (ip: string, spider: string, verdict: 'genuine' | 'fake', until: number) => void;
  now?: () => number;
}

export interface SpiderDns {
  /** Cached verdict, or undefined while unknown (starts the lookup). */
  verdict(ip: string, spider: string): 'genuine' | 'fake' | undefined;
  /** Runs (or joins) the lookup and resolves with its verdict (tests; warm-up). */
  check(ip: string, spider: string): Promise<'genuine' | 'fake' | undefined>;
  /** A verdict another worker found. */
  learn(ip: string, spider: string, verdict: 'genuine' | 'fake', until: number): void;
}

const notFound = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

export function createSpiderDns(options: SpiderDnsOptions = {}): SpiderDns {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 2000, tries: options.tries ?? 2 });
  if (options.servers) resolver.setServers([...options.servers]);
  const now = options.now ?? Date.now;
  const ttl = { genuine: options.genuineTtlMs ?? 6 * 3600_000, fake: options.fakeTtlMs ?? 3600_000 };
  const failedRetryMs = options.failedRetryMs ?? 60_000;
  const maxVerdicts = options.maxVerdicts ?? 50_000;
  const maxInFlight = options.maxInFlight ?? 64;
  const verdicts = new CappedMap<string, { verdict: 'genuine' | 'fake' | undefined; until: number }>(maxVerdicts);
  const inFlight = new Map<string, Promise<'genuine' | 'fake' | undefined>>();

  async function lookup(ip: string, spider: SpiderName): Promise<'genuine' | 'fake' | undefined> {
    let names: string[];
    try {
      // resolvePtr, not reverse(): reverse() reports a timeout as ENOTFOUND, which would read as "no PTR: fake".
      names = await resolver.resolvePtr(reverseLookupName(ip));
    } catch (err) {
      if (notFound.has((err as NodeJS.ErrnoException).code ?? '')) return 'fake';
      return undefined;
    }
    const domains: readonly string[] = knownSpiders[spider].domains;
    // Only names under the engine's domains are worth a forward lookup.
    const candidates = names.filter((n) => domains.some((d) => under(n, d))).slice(0, 5);
    if (candidates.length === 0) return 'fake';
    const family = isIP(ip);
    const forward: string[] = [];
    let failed = false;
    for (const name of candidates) {
      try {
        forward.push(...(family === 6 ? await resolver.resolve6(name) : await resolver.resolve4(name)).map(canonical));
      } catch (err) {
        if (!notFound.has((err as NodeJS.ErrnoException).code ?? '')) failed = true;
      }
    }
    const verdict = verifySpiderDns(spider, canonical(ip), candidates, forward);
    // A name that could not be resolved for DNS reasons leaves the question open, unless another proved it.
    return verdict === 'fake' && failed ? undefined : verdict;
  }

  function remember(key: string, ip: string, spider: string, verdict: 'genuine' | 'fake' | undefined): void {
    const until = now() + (verdict === undefined ? failedRetryMs : ttl[verdict]);
    verdicts.set(key, { verdict, until });
    if (verdict !== undefined) options.onVerdict?.(ip, spider, verdict, until);
  }

  function check(ip: string, spider: string): Promise<'genuine' | 'fake' | undefined> {
    const key = `${spider}\u0000${ip}`;
    const running = inFlight.get(key);
    if (running) return running;
    if (!(spider in knownSpiders) || isIP(plain(ip)) === 0) return Promise.resolve(undefined);
    if (inFlight.size >= maxInFlight) return Promise.resolve(undefined);
    const started = lookup(plain(ip), spider as SpiderName)
      .catch(() => undefined)
      .then((verdict) => {
        remember(key, ip, spider, verdict);
        return verdict;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, started);
    return started;
  }

  return {
    verdict(ip, spider) {
      const cached = verdicts.get(`${spider}\u0000${ip}`);
      if (cached && cached.until > now()) return cached.verdict;
      void check(ip, spider);
      return undefined;
    },
    check(ip, spider) {
      const cached = verdicts.get(`${spider}\u0000${ip}`);
      if (cached && cached.until > now()) return Promise.resolve(cached.verdict);
      return check(ip, spider);
    },
    learn(ip, spider, verdict, until) {
      if (until > now()) verdicts.set(`${spider}\u0000${ip}`, { verdict, until });
    },
  };
}

function under(host: string, domain: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === domain || name.endsWith(`.${domain}`);
}

/** The PTR query name of an address: d.c.b.a.in-addr.arpa, or the 32 nibbles reversed under ip6.arpa. */
export function reverseLookupName(ip: string): string {
  if (isIP(ip) === 4) return `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const h = head ? head.split(':') : [];
  const t = ip.includes('::') && tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4 style) is two groups.
  const groups = [...h, ...Array<string>(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t].flatMap((g) => {
    if (!g.includes('.')) return [g];
    const [a = 0, b = 0, c = 0, d = 0] = g.split('.').map(Number);
    return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
  });
  const nibbles = groups.map((g) => g.padStart(4, '0')).join('');
  return `${[...nibbles].reverse().join('.')}.ip6.arpa`;
}

/** An IPv4-mapped IPv6 address is asked about as the IPv4 address it is. */
function plain(ip: string): string {
  const lower = ip.toLowerCase();
  return lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4 ? lower.slice(7) : ip;
}

/** One spelling per address, so 2001:db8::1 and 2001:0db8:0:0:0:0:0:1 compare equal. */
function canonical(ip: string): string {
  const p = plain(ip);
  if (isIP(p) !== 6) return p;
  try {
    return new URL(`http://[${p}]/`).hostname.slice(1, -1);
  } catch {
    return p.toLowerCase();
  }
}
