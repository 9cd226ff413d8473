import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSpiderDns } from '../src/spider-dns.ts';
import { reverseName, startDnsServer, type TestDnsServer } from './harness/dns-server.ts';

/*
 * The fake-spider DNS check against a real DNS server on loopback (harness/dns-server.ts): the
 * gateway's resolver is pointed at it, so PTR and forward answers are whatever the test says.
 */
describe('spider DNS: reverse then forward', () => {
  let dns: TestDnsServer;
  const servers = () => [`127.0.0.1:${dns.port}`];

  beforeAll(async () => {
    dns = await startDnsServer({
      // A genuine Googlebot: PTR under googlebot.com, which resolves back.
      [reverseName('66.249.66.1')]: { PTR: ['crawl-66-249-66-1.googlebot.com'] },
      'crawl-66-249-66-1.googlebot.com': { A: ['66.249.66.1'] },
      // A genuine Bingbot over IPv6 (the forward answer spelled differently).
      [reverseName('2001:db8::55')]: { PTR: ['msnbot-55.search.msn.com'] },
      'msnbot-55.search.msn.com': { AAAA: ['2001:db8:0:0:0:0:0:55'] },
      // Claims googlebot.com in PTR, but the name resolves elsewhere: forged PTR record.
      [reverseName('203.0.113.7')]: { PTR: ['crawl-66-249-66-1.googlebot.com'] },
      // A PTR name outside the engine's domains.
      [reverseName('198.51.100.9')]: { PTR: ['googlebot.com.evil.example'] },
      'googlebot.com.evil.example': { A: ['198.51.100.9'] },
      // Known name, no PTR data.
      [reverseName('198.51.100.10')]: { A: [] },
      // Baidu with a name that does not answer forward (timeout): no verdict.
      [reverseName('180.76.15.1')]: { PTR: ['baiduspider-180-76-15-1.crawl.baidu.com'] },
    }, [reverseName('192.0.2.99'), 'baiduspider-180-76-15-1.crawl.baidu.com']);
  });
  afterAll(() => dns.close());

  it('says genuine when the PTR name is under the engine domain and resolves back', async () => {
    const spider = createSpiderDns({ servers: servers() });
    expect(await spider.check('66.249.66.1', 'google')).toBe('genuine');
    expect(spider.verdict('66.249.66.1', 'google')).toBe('genuine');
    expect(await spider.check('2001:db8::55', 'bing')).toBe('genuine');
    // The same address claiming another engine is not that engine.
    expect(await spider.check('66.249.66.1', 'bing')).toBe('fake');
  });

  it('says fake for a forged PTR, a foreign domain, or no PTR at all', async () => {
    const spider = createSpiderDns({ servers: servers() });
    expect(await spider.check('203.0.113.7', 'google')).toBe('fake');
    expect(await spider.check('198.51.100.9', 'google')).toBe('fake');
    expect(await spider.check('198.51.100.10', 'google')).toBe('fake');
    expect(await spider.check('198.51.100.11', 'google')).toBe('fake'); // NXDOMAIN
  });

  it('gives no verdict on a timeout, and asks again only after the retry pause', async () => {
    let clock = Date.now();
    const spider = createSpiderDns({ servers: servers(), timeoutMs: 200, tries: 1, failedRetryMs: 60_000, now: () => clock });
    const began = Date.now();
    expect(await spider.check('192.0.2.99', 'google')).toBeUndefined();
    expect(Date.now() - began).toBeLessThan(3000);
    // A forward lookup that times out leaves it open too.
    expect(await spider.check('180.76.15.1', 'baidu')).toBeUndefined();
    const asked = dns.queries.filter((q) => q.includes(reverseName('192.0.2.99'))).length;
    expect(spider.verdict('192.0.2.99', 'google')).toBeUndefined();
    await new Promise((r) => setTimeout(r, 50));
    expect(dns.queries.filter((q) => q.includes(reverseName('192.0.2.99'))).length).toBe(asked);
    clock += 61_000;
    expect(spider.verdict('192.0.2.99', 'google')).toBeUndefined();
    // The new lookup runs in the background: waited for, not given a fixed 50 ms a loaded machine may not keep.
    await expect.poll(() => dns.queries.filter((q) => q.includes(reverseName('192.0.2.99'))).length, { timeout: 5000 }).toBeGreaterThan(asked);
  });

  it('answers undefined at once, runs one lookup per address however many ask, and caches the verdict', async () => {
    const spider = createSpiderDns({ servers: servers() });
    const before = dns.queries.length;
    expect(spider.verdict('66.249.66.1', 'google')).toBeUndefined();
    expect(spider.verdict('66.249.66.1', 'google')).toBeUndefined();
    expect(await spider.check('66.249.66.1', 'google')).toBe('genuine');
    expect(dns.queries.length - before).toBe(2); // one PTR, one A
    expect(spider.verdict('66.249.66.1', 'google')).toBe('genuine');
    expect(dns.queries.length - before).toBe(2);
  });

  it('keeps genuine verdicts 6 h and fake ones 1 h, and tells the cluster', async () => {
    let clock = Date.now();
    const told: string[] = [];
    const spider = createSpiderDns({ servers: servers(), now: () => clock, onVerdict: (ip, s, v) => told.push(`${ip} ${s} ${v}`) });
    await spider.check('66.249.66.1', 'google');
    await spider.check('203.0.113.7', 'google');
    expect(told).toEqual(['66.249.66.1 google genuine', '203.0.113.7 google fake']);
    clock += 3600_000 + 1;
    expect(spider.verdict('66.249.66.1', 'google')).toBe('genuine');
    expect(spider.verdict('203.0.113.7', 'google')).toBeUndefined();
    // Another worker's verdict is taken as is.
    spider.learn('192.0.2.1', 'yandex', 'genuine', clock + 1000);
    expect(spider.verdict('192.0.2.1', 'yandex')).toBe('genuine');
  });
});
