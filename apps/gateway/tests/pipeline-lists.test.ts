import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashAuthorizationPassword, listOrder } from '@rampart/waf';
import { loadInspector } from '../src/load-inspector.ts';
import { hasNginx } from './harness/origin.ts';
import { settings, startPolicyGateway, windowNotNow, type PolicyHarness } from './harness/policy-gateway.ts';

// The web lists in the spec's order, the spider checks, CC protection and the authorization
// password, through the gateway to a real nginx, with the real engine.

const sqli = `/index.html?id=${encodeURIComponent("1' OR '1'='1' -- ")}`;
const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const password = 'Open-Sesame-42';
const passwordHash = hashAuthorizationPassword(password);

/** Name=value pairs of a page's hidden form fields. */
function hiddenFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) out[m[1]!] = m[2]!.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
  return out;
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };

describe.skipIf(!hasNginx)('gateway pipeline: lists, spiders, CC and authorization through nginx', () => {
  let h: PolicyHarness;

  beforeAll(async () => {
    h = await startPolicyGateway(await loadInspector(undefined, () => {}));
  });
  afterAll(async () => {
    await h?.stop();
  });
  beforeEach(async () => {
    h.events.length = 0;
    h.services.replaceTimed({ intercepted: [], authorized: [] });
    h.areas.clear();
    h.dns.clear();
    await h.apply(settings());
  });

  const lastEvent = () => h.events.at(-1);
  const status = async (path: string, ip: string, headers: Record<string, string> = {}) => (await h.get(path, { ip, headers })).status;

  it('follows the spec order of the lists: each earlier list beats every later one', async () => {
    expect(listOrder).toEqual(['super_white', 'spider_white', 'ip_white', 'url_white', 'ua_white', 'referer_white', 'ip_black', 'url_black', 'ua_black', 'referer_black', 'malicious', 'author', 'intercept']);
    const now = Date.now();
    h.services.replaceTimed({
      intercepted: [{ ip: '192.0.2.12', reason: 'manual', created_at: now, detail: '', expires_at: now + 60_000 }, { ip: '192.0.2.13', reason: 'manual', created_at: now, detail: '', expires_at: now + 60_000 }],
      authorized: [{ ip: '192.0.2.12', reason: 'manual', created_at: now, detail: '', expires_at: now + 60_000 }, { ip: '192.0.2.11', reason: 'manual', created_at: now, detail: '', expires_at: now + 60_000 }],
    });
    await h.apply(
      settings((s) => {
        s.lists.spider = { enabled: true, ips: ['192.0.2.2'], spiders: ['google'], fake_check: true, fake_mode: 'strict' };
        s.lists.ip_white = { enabled: true, ips: ['192.0.2.3'], areas: [] };
        s.lists.url_white = { enabled: true, entries: ['/index.html'] };
        s.lists.ua_white = { enabled: true, entries: ['TrustedMonitor'] };
        s.lists.referer_white = { enabled: true, entries: ['intranet.example'] };
        s.lists.ip_black = { enabled: true, ips: ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4', '192.0.2.11'], areas: [] };
        s.lists.url_black = { enabled: true, entries: ['/admin', '/index.html'] };
        s.lists.ua_black = { enabled: true, entries: ['sqlmap', 'TrustedMonitor'] };
        s.lists.referer_black = { enabled: true, entries: ['spam.example', 'intranet.example'] };
      }),
      {},
      { super_whitelist: ['192.0.2.1'] },
    );
    // super whitelist beats the IP blacklist (and skips detection).
    expect(await status(sqli, '192.0.2.1')).toBe(200);
    // the spider whitelist beats the IP blacklist.
    expect(await status('/admin/', '192.0.2.2')).toBe(200);
    // the IP whitelist beats the URL blacklist.
    expect(await status('/admin/', '192.0.2.3')).toBe(200);
    // the URL whitelist beats the UA blacklist (partial match: /index.html?x).
    expect(await status('/index.html?x=1', '192.0.2.5', { 'user-agent': 'sqlmap/1.8' })).toBe(200);
    // the UA whitelist beats the referer blacklist; the referer whitelist beats the UA blacklist.
    expect(await status('/report.txt', '192.0.2.5', { 'user-agent': 'TrustedMonitor/2', referer: 'http://spam.example/' })).toBe(200);
    expect(await status('/report.txt', '192.0.2.5', { 'user-agent': 'sqlmap/1.8', referer: 'http://intranet.example/' })).toBe(200);
    // the IP blacklist speaks before the URL blacklist.
    expect(await status('/admin/', '192.0.2.4')).toBe(403);
    expect(lastEvent()?.rule).toBe('lists.ip_black');
    expect(await status('/admin/', '192.0.2.5')).toBe(403);
    expect(lastEvent()?.rule).toBe('lists.url_black');
    expect(await status('/report.txt', '192.0.2.5', { 'user-agent': 'sqlmap/1.8', referer: 'http://spam.example/' })).toBe(403);
    expect(lastEvent()?.rule).toBe('lists.ua_black');
    expect(await status('/report.txt', '192.0.2.5', { referer: 'http://spam.example/' })).toBe(403);
    expect(lastEvent()?.rule).toBe('lists.referer_black');
    // the blacklists come before the authorization list: an authorized but blacklisted address stays out.
    expect(await status('/report.txt', '192.0.2.11')).toBe(403);
    expect(lastEvent()?.rule).toBe('lists.ip_black');
    // the authorization list beats the interception list; the interception list alone blocks.
    expect(await status('/report.txt', '192.0.2.12')).toBe(200);
    expect(await status('/report.txt', '192.0.2.13')).toBe(403);
    expect(lastEvent()?.rule).toBe('lists.intercept');
  });

  it('an address allowed by a list skips attack detection; others do not', async () => {
    await h.apply(settings((s) => (s.lists.ip_white = { enabled: true, ips: ['192.0.2.30/31'], areas: [] })));
    expect(await status(sqli, '192.0.2.31')).toBe(200);
    expect(await status(sqli, '192.0.2.32')).toBe(403);
    expect(lastEvent()?.kind).toBe('sqli');
  });

  it('IP lists by area and common area, with the geo-IP answer injected', async () => {
    h.areas.set('203.0.113.20', ['CN', 'CN-GD']);
    h.areas.set('203.0.113.21', ['CN', 'CN-BJ']);
    h.areas.set('203.0.113.22', ['FR']);
    await h.apply(settings((s) => (s.lists.ip_black = { enabled: true, ips: [], areas: ['CN-GD', 'common:7'] })), {}, { common_areas: [{ id: 7, members: ['FR', 'DE'] }] });
    expect(await status('/index.html', '203.0.113.20')).toBe(403);
    expect(lastEvent()).toMatchObject({ rule: 'lists.ip_black', area: 'CN-GD' });
    expect(await status('/index.html', '203.0.113.21')).toBe(200);
    expect(await status('/index.html', '203.0.113.22')).toBe(403);
  });

  it('malicious IP blacklist by area', async () => {
    h.areas.set('192.0.2.50', ['US']);
    h.areas.set('192.0.2.51', ['DE']);
    await h.apply(settings((s) => (s.lists.malicious = { enabled: true, ips: ['192.0.2.50', '192.0.2.51'], areas: ['US'] })));
    expect(await status('/index.html', '192.0.2.50')).toBe(403);
    expect(lastEvent()).toMatchObject({ rule: 'lists.malicious', area: 'US' });
    expect(await status('/index.html', '192.0.2.51')).toBe(200);
    expect(await status('/index.html', '192.0.2.52')).toBe(200);
    await h.apply(settings((s) => (s.lists.malicious = { enabled: true, ips: ['192.0.2.50', '192.0.2.51'], areas: [] })));
    expect(await status('/index.html', '192.0.2.51')).toBe(403);
  });

  it('spider whitelist: a crawler the DNS check confirms is let in; a fake one is blocked and intercepted (strict)', async () => {
    h.dns.set('66.249.66.1', 'genuine');
    h.dns.set('203.0.113.66', 'fake');
    await h.apply(settings((s) => (s.lists.url_black = { enabled: true, entries: ['/admin'] })));
    expect(await status('/admin/', '66.249.66.1', { 'user-agent': googlebot })).toBe(200);
    expect(await status('/admin/', '66.249.66.2', { 'user-agent': googlebot })).toBe(403); // DNS answer not in yet: an ordinary visitor
    expect(await status('/index.html', '203.0.113.66', { 'user-agent': googlebot })).toBe(403);
    const block = h.events.find((e) => e.type === 'block' && e.rule === 'lists.fake_spider');
    expect(block).toBeDefined();
    const intercept = h.events.find((e) => e.type === 'intercept');
    expect(intercept).toMatchObject({ rule: 'lists.fake_spider', intercept: { ip: '203.0.113.66', reason: 'fake_spider' } });
    // The same address without the crawler's name is still out: it is on the interception list now.
    expect(await status('/index.html', '203.0.113.66')).toBe(403);
    expect(lastEvent()?.rule).toBe('lists.intercept');
  });

  it('fake spider in loose mode asks for human verification instead', async () => {
    h.dns.set('203.0.113.67', 'fake');
    await h.apply(settings((s) => (s.lists.spider.fake_mode = 'loose')));
    const r = await h.get('/index.html', { ip: '203.0.113.67', headers: { 'user-agent': googlebot } });
    expect(r.status).toBe(302);
    expect(r.headers.location).toMatch(/^\/\.rampart\/verify\?/);
    expect(lastEvent()).toMatchObject({ type: 'challenge', rule: 'lists.fake_spider' });
    // Passing the verification lets the visitor in, crawler name and all.
    const verified = await h.get(String(r.headers.location), { ip: '203.0.113.67', headers: { 'user-agent': googlebot } });
    expect(verified.status).toBe(303);
    const cookie = String(verified.headers['set-cookie']).split(';')[0]!;
    expect(await status('/index.html', '203.0.113.67', { 'user-agent': googlebot, cookie })).toBe(200);
  });

  it('CC loose, redirect: over the limit a visitor is sent through the check URL, gets the pass cookie, and comes back', async () => {
    await h.apply(settings((s) => (s.protect.cc = { enabled: true, mode: 'loose', verification: 'redirect', per_minute: 3, block_minutes: 10 })));
    const ip = '198.51.100.70';
    for (let i = 0; i < 3; i++) expect(await status(`/index.html?i=${i}`, ip)).toBe(200);
    const challenged = await h.get('/index.html?i=3', { ip });
    expect(challenged.status).toBe(302);
    const location = String(challenged.headers.location);
    expect(location.startsWith('/.rampart/verify?r=%2Findex.html%3Fi%3D3&t=')).toBe(true);
    expect(lastEvent()).toMatchObject({ type: 'challenge', rule: 'protect.cc.redirect', client_ip: ip });
    // The ticket is bound to the address: another one can't use it.
    expect((await h.get(location, { ip: '198.51.100.71' })).status).toBe(403);
    const verified = await h.get(location, { ip });
    expect(verified.status).toBe(303);
    expect(verified.headers.location).toBe('/index.html?i=3');
    const setCookie = String(verified.headers['set-cookie']);
    expect(setCookie).toMatch(/^rampart_pass=\d+\.[A-Za-z0-9_-]+; Path=\/; Max-Age=1800; HttpOnly; SameSite=Lax$/);
    const cookie = setCookie.split(';')[0]!;
    const back = await h.get('/index.html?i=3', { ip, headers: { cookie } });
    expect(back.status).toBe(200);
    expect(back.text).toBe('<h1>origin</h1>\n');
    // The pass is the address's own: from another address over its limit, it is no pass.
    const other = '198.51.100.72';
    for (let i = 0; i < 3; i++) await h.get('/index.html', { ip: other });
    expect(await status('/index.html', other, { cookie })).toBe(302);
    expect(h.originLog().some((line) => line.includes('/.rampart/'))).toBe(false);
  });

  it('CC loose, click: the page posts the ticket, the pass cookie follows, the visitor gets through', async () => {
    await h.apply(settings((s) => (s.protect.cc = { enabled: true, mode: 'loose', verification: 'click', per_minute: 2, block_minutes: 10 })));
    const ip = '198.51.100.80';
    await h.get('/index.html', { ip });
    await h.get('/index.html', { ip });
    const page = await h.get('/index.html', { ip, headers: { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.5' } });
    expect(page.status).toBe(429);
    expect(page.text).toContain('继续访问');
    expect(page.text).toContain('action="/.rampart/verify"');
    expect(lastEvent()).toMatchObject({ type: 'challenge', rule: 'protect.cc.click' });
    const fields = hiddenFields(page.text);
    expect(fields.r).toBe('/index.html');
    // A link is no click: GET on the verify URL is refused in click mode.
    expect((await h.get(`/.rampart/verify?r=%2Findex.html&t=${encodeURIComponent(fields.t!)}`, { ip })).status).toBe(404);
    const verified = await h.get('/.rampart/verify', { ip, method: 'POST', body: form(fields), headers: formHeaders });
    expect(verified.status).toBe(303);
    const cookie = String(verified.headers['set-cookie']).split(';')[0]!;
    expect(await status('/index.html', ip, { cookie })).toBe(200);
    expect(await status('/index.html', ip)).toBe(429);
  });

  it('CC strict: over the limit the address is blocked, intercepted, and reported', async () => {
    await h.apply(settings((s) => (s.protect.cc = { enabled: true, mode: 'strict', verification: 'redirect', per_minute: 3, block_minutes: 7 })));
    const ip = '198.51.100.90';
    for (let i = 0; i < 3; i++) expect(await status('/index.html', ip)).toBe(200);
    expect(await status('/index.html', ip)).toBe(403);
    expect(h.events.find((e) => e.type === 'block')).toMatchObject({ rule: 'protect.cc', kind: 'policy', client_ip: ip });
    const intercept = h.events.find((e) => e.type === 'intercept')!;
    expect(intercept).toMatchObject({ rule: 'protect.cc', intercept: { ip, reason: 'cc' } });
    expect(intercept.intercept!.expires_at - intercept.intercept!.created_at).toBe(7 * 60_000);
    expect(h.services.timed().intercepted.get(ip)).toBe(intercept.intercept!.expires_at);
    expect(await status('/index.html', ip)).toBe(403);
    expect(lastEvent()?.rule).toBe('lists.intercept');
    expect(await status('/index.html', '198.51.100.91')).toBe(200);
  });

  it('authorization password: the form in both languages, wrong then right password, then the address passes', async () => {
    await h.apply(settings((s) => {
      s.protect.authorization = { enabled: true, validity_minutes: 15, password_hash: passwordHash };
      s.protect.time_limits = [{ id: 1, enabled: true, url: '/admin', windows: [windowNotNow()] }];
    }));
    const ip = '198.51.100.100';
    const gate = await h.get('/admin/', { ip });
    expect(gate.status).toBe(403);
    expect(gate.text).toContain('Enter the authorization password');
    expect(gate.text).toContain('15 minutes');
    expect(lastEvent()).toMatchObject({ type: 'challenge', rule: 'protect.authorization' });
    const zh = await h.get('/admin/', { ip, headers: { 'accept-language': 'zh-CN' } });
    expect(zh.text).toContain('输入授权密码');
    const fields = hiddenFields(gate.text);
    expect(fields.r).toBe('/admin/');
    const wrong = await h.get('/.rampart/authorize', { ip, method: 'POST', body: form({ ...fields, password: 'not-the-one-1' }), headers: formHeaders });
    expect(wrong.status).toBe(403);
    expect(wrong.text).toContain('The password is wrong.');
    expect(h.services.timed().authorized.has(ip)).toBe(false);
    // A form token is bound to the address it was given to.
    const stolen = await h.get('/.rampart/authorize', { ip: '198.51.100.101', method: 'POST', body: form({ ...fields, password }), headers: formHeaders });
    expect(stolen.text).toContain('The form has expired');
    const right = await h.get('/.rampart/authorize', { ip, method: 'POST', body: form({ ...fields, password }), headers: formHeaders });
    expect(right.status).toBe(303);
    expect(right.headers.location).toBe('/admin/');
    const event = lastEvent()!;
    expect(event).toMatchObject({ type: 'authorize', rule: 'protect.authorization', client_ip: ip, author: { ip, reason: 'password' } });
    expect(event.author!.expires_at - event.author!.created_at).toBe(15 * 60_000);
    expect(h.services.timed().authorized.get(ip)).toBe(event.author!.expires_at);
    const inside = await h.get('/admin/', { ip });
    expect(inside.status).toBe(200);
    expect(inside.text).toBe('<h1>admin</h1>\n');
    // Spec order: the authorization list also lets the address past the interception list ...
    const now = Date.now();
    h.services.addTimed('intercepted', { ip, reason: 'manual', created_at: now, detail: '', expires_at: now + 60_000 });
    expect(await status('/index.html', ip)).toBe(200);
    // ... but not past the IP blacklist, which comes before it.
    await h.apply(settings((s) => {
      s.protect.authorization = { enabled: true, validity_minutes: 15, password_hash: passwordHash };
      s.lists.ip_black = { enabled: true, ips: [ip], areas: [] };
    }));
    expect(await status('/index.html', ip)).toBe(403);
  });

  it('links the authorization form from the block page when the password is on, and limits wrong tries', async () => {
    await h.apply(settings((s) => {
      s.protect.authorization = { enabled: true, validity_minutes: 5, password_hash: passwordHash };
      s.lists.url_black = { enabled: true, entries: ['/private'] };
    }));
    const ip = '198.51.100.110';
    const blocked = await h.get('/private/x', { ip });
    expect(blocked.status).toBe(403);
    expect(blocked.text).toContain('href="/.rampart/authorize?r=%2Fprivate%2Fx"');
    const page = await h.get('/.rampart/authorize?r=%2Fprivate%2Fx', { ip });
    expect(page.status).toBe(200);
    const fields = hiddenFields(page.text);
    for (let i = 0; i < 5; i++) expect((await h.get('/.rampart/authorize', { ip, method: 'POST', body: form({ ...fields, password: `wrong-guess-${i}` }), headers: formHeaders })).status).toBe(403);
    const locked = await h.get('/.rampart/authorize', { ip, method: 'POST', body: form({ ...fields, password }), headers: formHeaders });
    expect(locked.status).toBe(429);
    expect(h.services.timed().authorized.has(ip)).toBe(false);
    // Off: no link, no form.
    await h.apply(settings((s) => (s.lists.url_black = { enabled: true, entries: ['/private'] })));
    expect((await h.get('/private/x', { ip })).text).not.toContain('/.rampart/authorize');
    expect((await h.get('/.rampart/authorize', { ip })).status).toBe(404);
  });
});
