/*
 * The website module's black and white lists tab and its two timed lists (interception list,
 * authorization list) in a real browser, in Chinese and in English, against the whole product.
 *
 * Lists: entries on several lists (IP with CIDR and a range, an area, URL parts, user agents,
 * referers) saved, read back after a reload and from the console's API; a bad address named by its
 * entry; blacklisting this browser's own address (the console sees it at 127.0.0.1) asks first.
 * Timed lists: addresses added by hand with minutes and a remark, searched, renewed and deleted after
 * confirmation, with the time-left column. The 127.0.0.0/8 entry saved on the blacklist refuses
 * nobody while no site is protected; the last test, which protects one, switches that list off.
 * Last, the authorization list filled by the gateway itself: a visitor's browser (its own context)
 * gives the authorization password on a time-limited URL outside its window, is let in, and the
 * tab shows the grant; deleting it there makes the gateway ask again.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, clickUntilGone, field, id, inEnglish, signIn } from './browser-session.ts';
import { freePort, newBrowserContext, startProduct, type RunningProduct } from './product.ts';
import { box, openWebsiteTab, resultDialog } from './website-page.ts';

/** For the tests that make many changes, each answered after the gateway reloaded. */
const long = 180_000;

/** What the page shows after an action: a little slack for a loaded machine. */
const ui = { timeout: 10_000 };

let product: RunningProduct;
let browser: Browser;
let page: Page;
let token = '';

const minute = 60_000;

interface TimedEntry {
  ip: string;
  reason: string;
  detail: string;
  created_at: number;
  expires_at: number;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const storedLists = async (): Promise<any> => (await api(product, token, 'GET', '/website/lists')).data;
const timed = async (list: string) => ((await api(product, token, 'GET', `/website/${list}`)).data as { total: number; list: TimedEntry[] });
const author = async () => (await timed('author_list')).list;

const openTab = (tab: string, ready: string) => openWebsiteTab(page, product.base, tab, ready);

beforeAll(async () => {
  product = await startProduct();
  ({ browser, page, token } = await signIn(product));
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe('website lists tab in a real browser', () => {
  it('saves entries on the IP, URL, user-agent and referer lists; they stay after a reload; a bad address is named by its entry', async () => {
    await openTab('lists', 'web-lists-save');
    await page.click(id('web-lists-ip_black.enabled'));
    await page.fill(box('web-lists-ip_black.ips'), '203.0.113.0/24\n198.51.100.7-198.51.100.9\n10.0.0.300');
    await page.click(id('web-lists-save'));
    await expect.poll(() => page.textContent(id('web-lists-error-ip_black.ips')), ui).toBe('第 3 项：IP 格式有误：支持 IPv4、IPv6、CIDR、范围（a-b）或 *');
    expect((await storedLists()).ip_black.ips).toEqual([]);

    await page.fill(box('web-lists-ip_black.ips'), '203.0.113.0/24\n198.51.100.7-198.51.100.9\n2001:db8::/32');
    // An area, chosen by typing its name in the picker.
    await page.click(id('web-lists-ip_black.areas'));
    await page.keyboard.type('日本');
    await page.click(id('web-lists-ip_black.areas-JP'));
    await page.keyboard.press('Escape');
    await page.click(id('web-lists-url_black.enabled'));
    await page.fill(box('web-lists-url_black.entries'), '/wp-admin\n.env');
    await page.click(id('web-lists-ua_black.enabled'));
    await page.fill(box('web-lists-ua_black.entries'), 'sqlmap\nNikto');
    await page.click(id('web-lists-referer_black.enabled'));
    await page.fill(box('web-lists-referer_black.entries'), 'spam.example.net');
    await page.click(id('web-lists-url_white.enabled'));
    await page.fill(box('web-lists-url_white.entries'), '/healthz');
    await page.click(id('web-lists-save'));
    await expect.poll(() => page.textContent(resultDialog), { timeout: 15_000 }).toBe('保存成功');

    const saved = await storedLists();
    expect(saved.ip_black).toEqual({ enabled: true, ips: ['203.0.113.0/24', '198.51.100.7-198.51.100.9', '2001:db8::/32'], areas: ['JP'] });
    expect(saved.url_black).toEqual({ enabled: true, entries: ['/wp-admin', '.env'] });
    expect(saved.ua_black).toEqual({ enabled: true, entries: ['sqlmap', 'Nikto'] });
    expect(saved.referer_black).toEqual({ enabled: true, entries: ['spam.example.net'] });
    expect(saved.url_white).toEqual({ enabled: true, entries: ['/healthz'] });

    await openTab('lists', 'web-lists-save');
    expect(await page.inputValue(box('web-lists-ip_black.ips'))).toBe('203.0.113.0/24\n198.51.100.7-198.51.100.9\n2001:db8::/32');
    expect(await page.textContent(id('web-lists-ip_black.areas'))).toContain('日本');
    expect(await page.inputValue(box('web-lists-url_black.entries'))).toBe('/wp-admin\n.env');
    expect(await page.inputValue(box('web-lists-ua_black.entries'))).toBe('sqlmap\nNikto');
    expect(await page.inputValue(box('web-lists-referer_black.entries'))).toBe('spam.example.net');
    expect(await page.getAttribute(id('web-lists-referer_black.enabled'), 'aria-checked')).toBe('true');

    await inEnglish(page, async () => {
      await page.waitForSelector(id('web-lists-ip_black.areas'));
      await expect.poll(() => page.textContent(id('web-lists-ip_black.areas')), ui).toContain('Japan');
      const text = await page.textContent(id('web-lists-page'));
      // The lists in the order the gateway reads them (spec: web list priorities).
      const order = ['Spider whitelist', 'IP / area whitelist', 'URL whitelist', 'User-agent whitelist', 'Referer whitelist', 'IP / area blacklist', 'URL blacklist', 'User-agent blacklist', 'Referer blacklist', 'Malicious IP blacklist'];
      const at = order.map((title) => text!.indexOf(title));
      expect(at.every((i) => i >= 0)).toBe(true);
      expect([...at].sort((a, b) => a - b)).toEqual(at);
      await page.fill(box('web-lists-ua_black.entries'), 'sqlmap\n' + 'x'.repeat(600));
      await page.click(id('web-lists-save'));
      await expect.poll(() => page.textContent(id('web-lists-error-ua_black.entries')), ui).toBe('Entry 2: List entries are 1 to 512 characters');
    });
    expect((await storedLists()).ua_black.entries).toEqual(['sqlmap', 'Nikto']);
  });

  it('blacklisting this browser\'s own address asks first: cancel saves nothing, "save anyway" saves', async () => {
    await openTab('lists', 'web-lists-save');
    await page.fill(box('web-lists-ip_black.ips'), '203.0.113.0/24\n127.0.0.0/8');
    await page.click(id('web-lists-save'));
    await expect.poll(() => page.textContent(id('web-lists-own-ip')), ui).toBe('你的 IP 127.0.0.1 在黑名单中（127.0.0.0/8），你自己访问受防护站点的请求将被拒绝。仍要保存吗？');
    await clickUntilGone(page, id('web-lists-own-ip-cancel'), id('web-lists-own-ip'));
    expect((await storedLists()).ip_black.ips).not.toContain('127.0.0.0/8');

    await inEnglish(page, async () => {
      await page.waitForSelector(box('web-lists-ip_black.ips'));
      await page.fill(box('web-lists-ip_black.ips'), '203.0.113.0/24\n127.0.0.0/8');
      await page.click(id('web-lists-save'));
      await expect.poll(() => page.textContent(id('web-lists-own-ip')), ui).toBe('Your IP 127.0.0.1 is covered by 127.0.0.0/8 on a blacklist: your own requests to the protected sites will be refused. Save anyway?');
      await clickUntilGone(page, id('web-lists-own-ip-cancel'), id('web-lists-own-ip'));
    });
    expect((await storedLists()).ip_black.ips).not.toContain('127.0.0.0/8');

    // A disabled blacklist refuses nobody: no question.
    await page.waitForSelector(box('web-lists-ip_black.ips'));
    await page.fill(box('web-lists-ip_black.ips'), '203.0.113.0/24\n127.0.0.0/8');
    await page.click(id('web-lists-ip_black.enabled'));
    await page.click(id('web-lists-save'));
    await expect.poll(() => page.textContent(resultDialog), { timeout: 15_000 }).toBe('保存成功');
    expect((await storedLists()).ip_black).toMatchObject({ enabled: false, ips: ['203.0.113.0/24', '127.0.0.0/8'] });
    await page.waitForSelector(resultDialog, { state: 'detached', timeout: 10_000 });

    // Enabled again: asked, and "save anyway" saves.
    await page.click(id('web-lists-ip_black.enabled'));
    await page.click(id('web-lists-save'));
    await expect.poll(() => page.textContent(id('web-lists-own-ip')), ui).toContain('127.0.0.0/8');
    expect(await page.textContent(id('web-lists-own-ip-confirm'))).toBe('仍然保存');
    await page.click(id('web-lists-own-ip-confirm'));
    await expect.poll(async () => (await storedLists()).ip_black.enabled, ui).toBe(true);
    await page.waitForSelector(resultDialog, { state: 'detached', timeout: 10_000 });
  });
});

describe.each([
  { list: 'intercept_list', zh: { add: '拦截地址', reason: '手动添加', started: '拦截时间' }, en: { add: 'Block addresses', started: 'Blocked at' } },
  { list: 'author_list', zh: { add: '授权地址', reason: '手动添加', started: '授权时间' }, en: { add: 'Authorize addresses', started: 'Authorized at' } },
])('website $list tab in a real browser', ({ list, zh, en }) => {
  const prefix = `web-${list}`;
  const rows = () => page.locator(`[data-testid^="${prefix}-row-"]`);
  /** The row of an address: rows are keyed by their place on the page, in the console's order. */
  const rowOf = async (ip: string) => (await timed(list)).list.findIndex((e) => e.ip === ip);

  it('adds by hand with minutes and a remark, searches, renews and deletes after confirmation; shows the time left', async () => {
    await openTab(list, `${prefix}-page`);
    await page.waitForSelector(`${id(`${prefix}-table`)} .ant-table-placeholder`);
    expect(await page.textContent(id(`${prefix}-add`))).toContain(zh.add);
    await page.click(id(`${prefix}-add`));
    await page.waitForSelector(id(`${prefix}-add-form`));
    await page.fill(box(`${prefix}-ips`), '203.0.113.7\n198.51.100.0/24');
    // The box must read empty before sending: the send below checks both fields in one go. The form
    // may fill in its default (60) a moment after it opens, over a clearing done too early: clear
    // until it stays empty.
    await expect
      .poll(async () => {
        await page.fill(field(`${prefix}-minutes`), '');
        return page.inputValue(field(`${prefix}-minutes`));
      }, ui)
      .toBe('');
    await page.click(id(`${prefix}-add-save`));
    await expect.poll(() => page.textContent(id(`${prefix}-error-ips`)), ui).toBe('第 2 行（198.51.100.0/24）：IP 格式有误：支持 IPv4、IPv6、CIDR、范围（a-b）或 *');
    await expect.poll(() => page.textContent(id(`${prefix}-error-minutes`)), ui).toBe('请输入禁止时间');
    expect((await timed(list)).total).toBe(0);

    await page.fill(box(`${prefix}-ips`), '203.0.113.7\n2001:db8::7');
    await page.fill(field(`${prefix}-minutes`), '30');
    await page.fill(field(`${prefix}-remark`), 'e2e 手动');
    await page.click(id(`${prefix}-add-save`));
    await page.waitForSelector(id(`${prefix}-add-form`), { state: 'detached' });
    await expect.poll(() => rows().count(), { timeout: 10_000 }).toBe(2);
    const stored = await timed(list);
    expect(stored.total).toBe(2);
    for (const entry of stored.list) {
      expect(entry).toMatchObject({ reason: 'manual', detail: 'e2e 手动' });
      expect(entry.expires_at - entry.created_at).toBe(30 * minute);
    }
    const v4 = await rowOf('203.0.113.7');
    const row = id(`${prefix}-row-${v4}`);
    for (const part of ['203.0.113.7', 'e2e 手动']) expect(await page.textContent(row)).toContain(part);
    expect(await page.textContent(id(`${prefix}-reason-${v4}`))).toBe(zh.reason);
    expect(await page.textContent(id(`${prefix}-remaining-${v4}`))).toBe('30 分钟');
    expect(await page.textContent(`${id(`${prefix}-table`)} thead`)).toContain(zh.started);

    await inEnglish(page, async () => {
      await page.waitForSelector(row);
      await expect.poll(() => page.textContent(id(`${prefix}-reason-${v4}`)), ui).toBe('Added by hand');
      expect(await page.textContent(id(`${prefix}-remaining-${v4}`))).toBe('30 min');
      const head = await page.textContent(`${id(`${prefix}-table`)} thead`);
      for (const title of ['IP address', 'Reason', 'Detail', en.started, 'Expires', 'Time left', 'Actions']) expect(head).toContain(title);
      expect(await page.textContent(id(`${prefix}-add`))).toContain(en.add);
      await page.click(id(`${prefix}-add`));
      await page.click(id(`${prefix}-add-save`));
      await expect.poll(() => page.textContent(id(`${prefix}-error-ips`)), ui).toBe('Enter an IP');
      await page.click(id(`${prefix}-add-cancel`));
      await page.waitForSelector(id(`${prefix}-add-form`), { state: 'detached' });
    });
    await page.waitForSelector(row);

    // Search by a part of the address; clearing the box shows everything again.
    await page.fill(field(`${prefix}-keyword`), '2001:db8');
    await page.click(id(`${prefix}-search`));
    await expect.poll(() => rows().count(), { timeout: 10_000 }).toBe(1);
    expect(await page.textContent(id(`${prefix}-row-0`))).toContain('2001:db8::7');
    await page.fill(field(`${prefix}-keyword`), '');
    await expect.poll(() => rows().count(), { timeout: 10_000 }).toBe(2);

    // Renew: the address is fixed, the remark kept, two hours from now.
    await page.click(id(`${prefix}-renew-${v4}`));
    await page.waitForSelector(id(`${prefix}-add-form`));
    expect(await page.inputValue(box(`${prefix}-ips`))).toBe('203.0.113.7');
    expect(await page.isDisabled(box(`${prefix}-ips`))).toBe(true);
    expect(await page.inputValue(field(`${prefix}-remark`))).toBe('e2e 手动');
    await page.fill(field(`${prefix}-minutes`), '120');
    await page.click(id(`${prefix}-add-save`));
    await page.waitForSelector(id(`${prefix}-add-form`), { state: 'detached' });
    await expect.poll(async () => {
      const entry = (await timed(list)).list.find((e) => e.ip === '203.0.113.7')!;
      return entry.expires_at - entry.created_at;
    }, { timeout: 10_000 }).toBe(120 * minute);
    const renewed = await rowOf('203.0.113.7');
    await expect.poll(() => page.textContent(id(`${prefix}-remaining-${renewed}`)), { timeout: 10_000 }).toBe('2 小时');
    expect((await timed(list)).list.find((e) => e.ip === '2001:db8::7')!.expires_at - Date.now()).toBeLessThanOrEqual(30 * minute);

    // Delete one: asked first; cancel keeps it.
    await page.click(id(`${prefix}-delete-${renewed}`));
    await expect.poll(() => page.textContent(resultDialog), ui).toBe('确定从列表中删除 1 个地址？');
    await page.click('.ant-modal-confirm .ant-btn-default');
    await page.waitForSelector(id(`${prefix}-delete-confirm`), { state: 'detached' });
    expect((await timed(list)).total).toBe(2);
    await page.click(id(`${prefix}-delete-${renewed}`));
    await page.click(id(`${prefix}-delete-confirm`));
    await expect.poll(async () => (await timed(list)).list.map((e) => e.ip), { timeout: 10_000 }).toEqual(['2001:db8::7']);
    await expect.poll(() => rows().count(), ui).toBe(1);

    // Delete the selection.
    await page.click(`${id(`${prefix}-row-0`)} .ant-checkbox-input`);
    expect(await page.textContent(id(`${prefix}-selected`))).toContain('1');
    await page.click(id(`${prefix}-delete-selected`));
    await page.click(id(`${prefix}-delete-confirm`));
    await expect.poll(async () => (await timed(list)).total, { timeout: 10_000 }).toBe(0);
    await page.waitForSelector(`${id(`${prefix}-table`)} .ant-table-placeholder`);
  }, long);
});

describe('the authorization password at the gateway, seen on the author_list tab', () => {
  let origin: Server;
  afterAll(async () => {
    await new Promise((resolve) => origin?.close(resolve));
  });

  it('a visitor who gives the password outside the time window is let in and listed; deleting the entry asks them again', async () => {
    origin = createServer((req, res) => res.end(`origin answered ${req.method} ${req.url}`));
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    const port = await freePort();
    const change = async (path: string, body: unknown) => {
      const answer = await api(product, token, 'POST', path, body);
      expect(answer.code, answer.msg).toBe(0);
    };
    // A protected site, the module on, and the earlier test's 127.0.0.0/8 blacklist entry out of the way.
    await change('/website/server', {
      name: 'e2e 授权', status: 'on', running: true, listen: [{ address: '127.0.0.1', port, tls: false }], server_names: [],
      upstreams: [`http://127.0.0.1:${(origin.address() as { port: number }).port}`], tls_cert: '', tls_key: '', trusted_proxies: [],
    });
    await change('/module_switch', { module: 'website', status: 1 });
    const lists = await storedLists();
    await change('/website/lists', { ...lists, ip_black: { ...lists.ip_black, enabled: false } });
    // /private is open only in a window twelve hours from now (the gateway reads its own clock, as this machine does).
    const hour = String((new Date().getHours() + 12) % 24).padStart(2, '0');
    const protect = (await api(product, token, 'GET', '/website/protect')).data as Record<string, unknown> & { authorization: Record<string, unknown> };
    const { password_set: _stored, ...auth } = protect.authorization;
    await change('/website/protect', {
      ...protect,
      time_limits: [{ id: 1, enabled: true, url: '/private', windows: [{ start: `${hour}:00`, end: `${hour}:30` }] }],
      authorization: { ...auth, enabled: true, validity_minutes: 45, password: 'Open-2026' },
    });

    // The visitor: a browser of its own, in Chinese, on the site (by name: a bare IP as Host is refused in strict mode).
    const visitorContext = await newBrowserContext(browser, { locale: 'zh-CN' });
    const visitor = await visitorContext.newPage();
    try {
      const url = `http://localhost:${port}/private`;
      await expect.poll(async () => (await visitor.goto(url))?.status(), { timeout: 20_000 }).toBe(403);
      await visitor.fill('input[name="password"]', 'wrong-2026');
      await visitor.click('button[type="submit"]');
      await visitor.waitForSelector('input[name="password"]');
      expect(await author()).toEqual([]);
      await visitor.fill('input[name="password"]', 'Open-2026');
      await visitor.click('button[type="submit"]');
      await expect.poll(() => visitor.textContent('body'), { timeout: 20_000 }).toBe('origin answered GET /private');

      // The gateway reports the grant; the console shows it on the tab.
      await expect.poll(async () => (await author()).map((e) => [e.ip, e.reason]), { timeout: 30_000 }).toEqual([['127.0.0.1', 'password']]);
      await openTab('author_list', 'web-author_list-page');
      await expect.poll(() => page.textContent(id('web-author_list-reason-0')), { timeout: 10_000 }).toBe('授权密码');
      expect(await page.textContent(id('web-author_list-remaining-0'))).toBe('45 分钟');
      await inEnglish(page, async () => {
        await expect.poll(() => page.textContent(id('web-author_list-reason-0')), { timeout: 10_000 }).toBe('Authorization password');
      });

      // Removed by hand: the gateway asks for the password again.
      await page.click(id('web-author_list-delete-0'));
      await page.click(id('web-author_list-delete-confirm'));
      await expect.poll(async () => (await author()).length, { timeout: 10_000 }).toBe(0);
      await expect.poll(async () => (await visitor.goto(url))?.status(), { timeout: 20_000 }).toBe(403);
      expect(await visitor.isVisible('input[name="password"]')).toBe(true);
    } finally {
      await visitorContext.close();
    }
  }, long);
});
