import type { Decision } from '../types.ts';
import { areasMeet, clientAddress, setHas, type ClientAddress } from './address-set.ts';
import type { CompiledPolicy, IpAreaList } from './compile.ts';
import { decodedUrl, headerValue, type RequestFacts } from './facts.ts';
import { claimedSpider } from './spider.ts';
import { textListMatch } from './text-list.ts';

/**
 * The web lists in the spec's order, exactly: the first list that speaks decides.
 * `allow` lets the request through without any further check (attack detection included);
 * `block` refuses it; `challenge` asks for human verification.
 */
export const listOrder = [
  'super_white',
  'spider_white',
  'ip_white',
  'url_white',
  'ua_white',
  'referer_white',
  'ip_black',
  'url_black',
  'ua_black',
  'referer_black',
  'malicious',
  'author',
  'intercept',
] as const;
export type ListStep = (typeof listOrder)[number] | 'fake_spider';

/** The two lists of addresses with an end time (ms since the epoch), held by the gateway. */
export interface TimedLists {
  /** Authorization list: addresses the authorization password let in. */
  authorized: ReadonlyMap<string, number>;
  /** Interception list: addresses blocked for a while (CC, 404 scan, by hand). */
  intercepted: ReadonlyMap<string, number>;
}

export const noTimedLists: TimedLists = { authorized: new Map(), intercepted: new Map() };

interface Context {
  facts: RequestFacts;
  address: ClientAddress | null;
  url: string;
  userAgent: string;
  referer: string;
}

type Outcome = 'allow' | 'block' | 'challenge';
type Step = (policy: CompiledPolicy, c: Context, timed: TimedLists) => Outcome | null;

function inIpArea(list: IpAreaList, c: Context): boolean {
  return list.enabled && (setHas(list.ips, c.address) || areasMeet(list.areas, c.facts.areas));
}

function active(map: ReadonlyMap<string, number>, ip: string, now: number): boolean {
  const until = map.get(ip);
  return until !== undefined && until > now;
}

/** The spider whitelist: listed crawler addresses, or a claimed spider the gateway's DNS check confirmed. */
function genuineSpider(policy: CompiledPolicy, c: Context): boolean {
  const spider = policy.lists.spider;
  if (!spider.enabled) return false;
  if (setHas(spider.ips, c.address)) return true;
  return c.facts.spiderDns === 'genuine' && claimedSpider(spider.spiders, c.userAgent) !== null;
}

/**
 * A fake spider is judged after every whitelist has had its say (an address on the IP whitelist
 * that happens to send a crawler's user agent is still let in) and before the blacklists: the spec
 * orders lists, and the fake-spider verdict is none of them, so this is where it does the least harm.
 */
function fakeSpider(policy: CompiledPolicy, c: Context): Outcome | null {
  const spider = policy.lists.spider;
  if (!spider.enabled || !spider.fakeCheck || c.facts.spiderDns !== 'fake') return null;
  if (claimedSpider(spider.spiders, c.userAgent) === null) return null;
  return spider.fakeMode === 'strict' ? 'block' : 'challenge';
}

const steps: [ListStep, Step][] = [
  ['super_white', (p, c) => (setHas(p.superWhitelist, c.address) ? 'allow' : null)],
  ['spider_white', (p, c) => (genuineSpider(p, c) ? 'allow' : null)],
  ['ip_white', (p, c) => (inIpArea(p.lists.ipWhite, c) ? 'allow' : null)],
  ['url_white', (p, c) => (textListMatch(p.lists.urlWhite, c.url) !== null ? 'allow' : null)],
  ['ua_white', (p, c) => (textListMatch(p.lists.uaWhite, c.userAgent) !== null ? 'allow' : null)],
  ['referer_white', (p, c) => (textListMatch(p.lists.refererWhite, c.referer) !== null ? 'allow' : null)],
  ['fake_spider', (p, c) => fakeSpider(p, c)],
  ['ip_black', (p, c) => (inIpArea(p.lists.ipBlack, c) ? 'block' : null)],
  ['url_black', (p, c) => (textListMatch(p.lists.urlBlack, c.url) !== null ? 'block' : null)],
  ['ua_black', (p, c) => (textListMatch(p.lists.uaBlack, c.userAgent) !== null ? 'block' : null)],
  ['referer_black', (p, c) => (textListMatch(p.lists.refererBlack, c.referer) !== null ? 'block' : null)],
  [
    'malicious',
    (p, c) => {
      const list = p.lists.malicious;
      if (!list.enabled) return null;
      const known = setHas(list.ips, c.address) || c.facts.reputation === 'malicious';
      return known && (list.anyArea || areasMeet(list.areas, c.facts.areas)) ? 'block' : null;
    },
  ],
  ['author', (_p, c, t) => (active(t.authorized, c.facts.clientIp, c.facts.now) ? 'allow' : null)],
  ['intercept', (_p, c, t) => (active(t.intercepted, c.facts.clientIp, c.facts.now) ? 'block' : null)],
];

/** Which list decided and how; null when none speaks. */
export function listVerdict(policy: CompiledPolicy, facts: RequestFacts, timed: TimedLists): { step: ListStep; outcome: Outcome } | null {
  const c: Context = {
    facts,
    address: clientAddress(facts.clientIp),
    url: decodedUrl(facts),
    userAgent: headerValue(facts, 'user-agent') ?? '',
    referer: headerValue(facts, 'referer') ?? '',
  };
  for (const [step, run] of steps) {
    const outcome = run(policy, c, timed);
    if (outcome) return { step, outcome };
  }
  return null;
}

/** The lists' answer: 'allow' (skip every other check), a block or challenge Decision, or null (go on). */
export function evaluateLists(policy: CompiledPolicy, facts: RequestFacts, timed: TimedLists = noTimedLists): 'allow' | Decision | null {
  const verdict = listVerdict(policy, facts, timed);
  if (!verdict) return null;
  const rule = `lists.${verdict.step}`;
  if (verdict.outcome === 'allow') return 'allow';
  return verdict.outcome === 'challenge' ? { action: 'challenge', rule } : { action: 'block', rule, kind: 'policy' };
}
