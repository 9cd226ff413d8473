import { describe, expect, it } from 'vitest';
import type { WebsiteSettings } from '@rampart/contracts';
import { evaluateLists, listOrder, listVerdict, noTimedLists, type ListStep, type TimedLists } from '../../src/policy/index.ts';
import { facts, noon, policyWith } from './support.ts';

const ip = '198.51.100.10';
const request = facts({
  clientIp: ip,
  target: '/admin/login.php?x=1',
  path: '/admin/login.php',
  query: 'x=1',
  headers: [
    ['Host', 'www.example.com'],
    ['User-Agent', 'Mozilla/5.0 TestBot/1.0'],
    ['Referer', 'https://ref.example/page'],
  ],
});

/** A policy where every list names the request above, except those in `off`. */
function everyListMatches(off: ReadonlySet<ListStep>) {
  const on = (step: ListStep) => !off.has(step);
  const policy = policyWith(
    (s: WebsiteSettings) => {
      s.lists.spider = { ...s.lists.spider, enabled: on('spider_white'), ips: ['198.51.100.0/28'] };
      s.lists.ip_white = { enabled: on('ip_white'), ips: [], areas: ['CN-GD'] };
      s.lists.url_white = { enabled: on('url_white'), entries: ['/admin/'] };
      s.lists.ua_white = { enabled: on('ua_white'), entries: ['testbot'] };
      s.lists.referer_white = { enabled: on('referer_white'), entries: ['ref.example'] };
      s.lists.ip_black = { enabled: on('ip_black'), ips: ['198.51.100.0-198.51.100.20'], areas: [] };
      s.lists.url_black = { enabled: on('url_black'), entries: ['LOGIN.PHP'] };
      s.lists.ua_black = { enabled: on('ua_black'), entries: ['TestBot'] };
      s.lists.referer_black = { enabled: on('referer_black'), entries: ['https://ref.'] };
      s.lists.malicious = { enabled: on('malicious'), ips: [ip], areas: ['CN'] };
    },
    { superWhitelist: on('super_white') ? ['198.51.100.0/24'] : [] },
  );
  const timed: TimedLists = {
    authorized: new Map(on('author') ? [[ip, noon + 60_000]] : []),
    intercepted: new Map(on('intercept') ? [[ip, noon + 60_000]] : []),
  };
  return { policy, timed };
}

describe('web list order (golden)', () => {
  it('follows the spec: super > spider > IP/URL/UA/referer white > IP/URL/UA/referer black > malicious > authorization > interception', () => {
    expect(listOrder).toEqual([
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
    ]);
    const off = new Set<ListStep>();
    const seen: string[] = [];
    for (;;) {
      const { policy, timed } = everyListMatches(off);
      const verdict = listVerdict(policy, request, timed);
      if (!verdict) break;
      seen.push(`${verdict.step}:${verdict.outcome}`);
      off.add(verdict.step);
    }
    expect(seen).toEqual([
      'super_white:allow',
      'spider_white:allow',
      'ip_white:allow',
      'url_white:allow',
      'ua_white:allow',
      'referer_white:allow',
      'ip_black:block',
      'url_black:block',
      'ua_black:block',
      'referer_black:block',
      'malicious:block',
      'author:allow',
      'intercept:block',
    ]);
  });

  it('evaluateLists answers allow, a block decision naming the list, or null', () => {
    expect(evaluateLists(everyListMatches(new Set()).policy, request, noTimedLists)).toBe('allow');
    const blacksOnly = new Set<ListStep>(['super_white', 'spider_white', 'ip_white', 'url_white', 'ua_white', 'referer_white']);
    const { policy, timed } = everyListMatches(blacksOnly);
    expect(evaluateLists(policy, request, timed)).toEqual({ action: 'block', rule: 'lists.ip_black', kind: 'policy' });
    expect(evaluateLists(policyWith(), request, noTimedLists)).toBeNull();
  });
});

describe('each list on its own', () => {
  it('URL whitelist is case-sensitive, URL blacklist is not, both partial', () => {
    const white = policyWith((s) => void (s.lists.url_white = { enabled: true, entries: ['/admin'] }));
    expect(evaluateLists(white, facts({ path: '/admin/index.php' }))).toBe('allow');
    expect(evaluateLists(white, facts({ path: '/ADMIN/index.php' }))).toBeNull();
    const black = policyWith((s) => void (s.lists.url_black = { enabled: true, entries: ['/admin'] }));
    expect(evaluateLists(black, facts({ path: '/ADMIN/index.php' }))).toMatchObject({ action: 'block', rule: 'lists.url_black' });
    expect(evaluateLists(black, facts({ path: '/public', query: 'next=/admin' }))).toMatchObject({ rule: 'lists.url_black' });
  });

  it('IP lists take CIDR, ranges and areas (common areas expanded); IPv4-mapped addresses are IPv4', () => {
    const policy = policyWith((s) => void (s.lists.ip_black = { enabled: true, ips: ['192.0.2.0/24', '2001:db8::/32'], areas: ['common:7'] }), {
      commonAreas: new Map([[7, ['RU', 'KP']]]),
    });
    expect(evaluateLists(policy, facts({ clientIp: '192.0.2.77' }))).toMatchObject({ rule: 'lists.ip_black' });
    expect(evaluateLists(policy, facts({ clientIp: '::ffff:192.0.2.77' }))).toMatchObject({ rule: 'lists.ip_black' });
    expect(evaluateLists(policy, facts({ clientIp: '2001:db8::1' }))).toMatchObject({ rule: 'lists.ip_black' });
    expect(evaluateLists(policy, facts({ clientIp: '192.0.3.1' }))).toBeNull();
    expect(evaluateLists(policy, facts({ clientIp: '192.0.3.1', areas: ['RU'] }))).toMatchObject({ rule: 'lists.ip_black' });
    expect(evaluateLists(policy, facts({ clientIp: 'not-an-ip' }))).toBeNull();
  });

  it('UA and referer lists match partially, any case', () => {
    const policy = policyWith((s) => {
      s.lists.ua_black = { enabled: true, entries: ['sqlmap'] };
      s.lists.referer_black = { enabled: true, entries: ['spam.example'] };
    });
    const base = facts();
    expect(evaluateLists(policy, base)).toBeNull();
    expect(evaluateLists(policy, { ...base, headers: [['User-Agent', 'SQLMap/1.8']] })).toMatchObject({ rule: 'lists.ua_black' });
    expect(evaluateLists(policy, { ...base, headers: [['Referer', 'http://www.SPAM.example/x']] })).toMatchObject({ rule: 'lists.referer_black' });
  });

  it('malicious blacklist: known addresses (listed or by reputation) from the chosen areas', () => {
    const policy = policyWith((s) => void (s.lists.malicious = { enabled: true, ips: ['192.0.2.5'], areas: ['US'] }));
    expect(evaluateLists(policy, facts({ clientIp: '192.0.2.5', areas: ['CN'] }))).toBeNull();
    expect(evaluateLists(policy, facts({ clientIp: '192.0.2.5', areas: ['US'] }))).toMatchObject({ rule: 'lists.malicious' });
    expect(evaluateLists(policy, facts({ clientIp: '192.0.2.6', areas: ['US'], reputation: 'malicious' }))).toMatchObject({ rule: 'lists.malicious' });
    const anywhere = policyWith((s) => void (s.lists.malicious = { enabled: true, ips: ['192.0.2.5'], areas: [] }));
    expect(evaluateLists(anywhere, facts({ clientIp: '192.0.2.5', areas: [] }))).toMatchObject({ rule: 'lists.malicious' });
  });

  it('timed lists count only until their end', () => {
    const timed: TimedLists = { authorized: new Map(), intercepted: new Map([['203.0.113.7', noon + 1]]) };
    expect(evaluateLists(policyWith(), facts(), timed)).toMatchObject({ rule: 'lists.intercept' });
    expect(evaluateLists(policyWith(), facts({ now: noon + 1 }), timed)).toBeNull();
  });

  it('spiders: a DNS-verified claimed spider is let through; a fake one is blocked (strict) or challenged (loose) after the whitelists', () => {
    const googlebot = facts({ headers: [['User-Agent', 'Mozilla/5.0 (compatible; Googlebot/2.1)']] });
    const strict = policyWith();
    expect(evaluateLists(strict, googlebot)).toBeNull(); // verdict not known yet: an ordinary visitor
    expect(evaluateLists(strict, { ...googlebot, spiderDns: 'genuine' })).toBe('allow');
    expect(evaluateLists(strict, { ...googlebot, spiderDns: 'fake' })).toEqual({ action: 'block', rule: 'lists.fake_spider', kind: 'policy' });
    const loose = policyWith((s) => void (s.lists.spider.fake_mode = 'loose'));
    expect(evaluateLists(loose, { ...googlebot, spiderDns: 'fake' })).toEqual({ action: 'challenge', rule: 'lists.fake_spider' });
    const whitelisted = policyWith((s) => void (s.lists.ip_white = { enabled: true, ips: ['203.0.113.7'], areas: [] }));
    expect(evaluateLists(whitelisted, { ...googlebot, spiderDns: 'fake' })).toBe('allow');
    const unchecked = policyWith((s) => void (s.lists.spider.fake_check = false));
    expect(evaluateLists(unchecked, { ...googlebot, spiderDns: 'fake' })).toBeNull();
    // Not a claimed spider: the DNS verdict is irrelevant.
    expect(evaluateLists(strict, { ...facts(), spiderDns: 'fake' })).toBeNull();
  });
});
