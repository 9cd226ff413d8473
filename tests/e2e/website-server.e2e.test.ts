/*
 * The website module's server tab in a real browser, in Chinese and in English, against the whole
 * product (console, agent, the gateway `npm start` runs as root, SQLite): a protected site added on
 * loopback in front of a real origin this file starts, edited, switched off and stopped, deleted;
 * a listener the gateway can't take (its refusal stays on the page as a banner, not only in a dialog
 * that closes by itself); the local nginx / Apache sites discovered by the agent; and the "open them
 * all?" offer when the module is switched on with sites that are all off (spec section 4). With the
 * module on, an SQL injection through the gateway gets the response tab's answer (the 403 standard
 * page, then custom content); with the module off the same request passes uninspected.
 *
 * Every listener here is on 127.0.0.1 and a free port: the gateway never takes this machine's 80/443.
 */
import { createServer, request, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, field, id, inEnglish, signIn } from './browser-session.ts';
import { freePort, startProduct, type RunningProduct } from './product.ts';
import { box, openWebsiteTab, resultDialog } from './website-page.ts';

/** For the tests that make many changes, each answered after the gateway reloaded. */
const long = 180_000;

/** What the page shows after an action: a little slack for a loaded machine. */
const ui = { timeout: 10_000 };

let product: RunningProduct;
let browser: Browser;
let page: Page;
let token = '';
let origin: Server;
let originUrl = '';

const rows = () => page.locator('[data-testid^="web-server-row-"]');

interface Site {
  id: number;
  name: string;
  status: 'on' | 'off';
  running: boolean;
  listen: { address: string; port: number; tls: boolean }[];
  upstreams: string[];
  server_names: string[];
}
/** A change answers after the gateway reloaded (its workers restart): the page follows within seconds. */
const slow = { timeout: 20_000 };
const sites = async () => ((await api(product, token, 'GET', '/website/server')).data as { list: Site[]; is_any_open: boolean });

/**
 * What the gateway answers on a port: status and body, or the network error's code (nobody listens).
 * Sent as a browser would: a host name, a user agent, Accept (strict mode refuses a bare IP as Host).
 */
function through(port: number, path = '/'): Promise<{ status: number; body: string } | string> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: 'shop.example.com', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) e2e', accept: 'text/html,*/*' }, timeout: 5_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    req.end();
  });
}

/** Every test starts with no site (a failed one may have left some). */
async function clearSites() {
  const ids = (await sites()).list.map((s) => s.id);
  if (ids.length > 0) expect((await api(product, token, 'POST', '/website/server_delete', { ids })).code).toBeLessThan(2);
}

async function openServerTab() {
  await openWebsiteTab(page, product.base, 'server', 'web-server-page');
  await page.waitForSelector(`${id('web-server-table')} .ant-table-tbody`);
}

beforeAll(async () => {
  origin = createServer((req, res) => {
    res.setHeader('content-type', 'text/plain');
    res.end(`origin answered ${req.method} ${req.url}`);
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
  product = await startProduct();
  ({ browser, page, token } = await signIn(product));
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
  await new Promise((resolve) => origin?.close(resolve));
});

describe('website server tab in a real browser', () => {
  it('adds a site on loopback in front of a real origin, edits it, switches protection off, stops, starts and deletes it', async () => {
    const port = await freePort();
    await openServerTab();
    await page.waitForSelector(`${id('web-server-table')} .ant-table-placeholder`);
    await page.click(id('web-server-add'));
    await page.waitForSelector(id('web-site-form'));

    // Nothing typed: the name and the origin are asked for, nothing is posted.
    await page.fill(field('web-site-listen-0-port'), '70000');
    await page.click(id('web-site-save'));
    await expect.poll(() => page.textContent(id('web-site-error-name')), ui).toBe('请输入站点名称');
    expect(await page.textContent(id('web-site-error-upstreams'))).toBe('请至少添加一个源站');
    expect(await page.textContent(id('web-site-error-listen.0.port'))).toBe('端口须为 1-65535 的整数');
    // An origin with a path is refused on the box.
    await page.fill(box('web-site-upstreams'), `${originUrl}/app`);
    await page.click(id('web-site-save'));
    await expect.poll(() => page.textContent(id('web-site-error-upstreams')), ui).toBe('源站须为 http(s)://主机:端口，不含路径');
    expect((await sites()).list).toEqual([]);

    await page.fill(field('web-site-name'), 'e2e 站点');
    await page.fill(field('web-site-listen-0-address'), '127.0.0.1');
    await page.fill(field('web-site-listen-0-port'), String(port));
    await page.fill(box('web-site-upstreams'), originUrl);
    await page.click(id('web-site-save'));
    await page.waitForSelector(id('web-site-form'), { state: 'detached' });
    await expect.poll(() => page.textContent(resultDialog), slow).toBe('保存成功');

    await expect.poll(() => rows().count(), slow).toBe(1);
    const [site] = (await sites()).list;
    expect(site).toMatchObject({ name: 'e2e 站点', status: 'on', running: true, listen: [{ address: '127.0.0.1', port, tls: false }], upstreams: [originUrl], server_names: [] });
    const row = id(`web-server-row-${site!.id}`);
    for (const part of ['e2e 站点', `127.0.0.1:${port}`, originUrl, '任意域名']) expect(await page.textContent(row)).toContain(part);
    expect(await page.textContent(id(`web-server-running-${site!.id}`))).toBe('运行中');
    expect(await page.getAttribute(id(`web-server-status-${site!.id}`), 'aria-checked')).toBe('true');
    // The gateway took the file and proxies to the origin.
    await expect.poll(() => through(port, '/hello?x=1'), slow).toEqual({ status: 200, body: 'origin answered GET /hello?x=1' });

    await inEnglish(page, async () => {
      await page.waitForSelector(row);
      await expect.poll(() => page.textContent(id(`web-server-running-${site!.id}`)), ui).toBe('Running');
      const head = await page.textContent(`${id('web-server-table')} thead`);
      for (const title of ['Name', 'Listen', 'Host names', 'Upstream origins', 'Protection', 'Running', 'Actions']) expect(head).toContain(title);
      expect(await page.textContent(row)).toContain('Any host');
      expect(await page.textContent(id('web-server-add'))).toContain('Add site');
      expect(await page.textContent(id('web-server-discover'))).toContain('Discover local sites');
      // The form checks in English too.
      await page.click(id(`web-server-edit-${site!.id}`));
      await page.waitForSelector(id('web-site-form'));
      await page.fill(field('web-site-name'), '');
      await page.click(id('web-site-save'));
      await expect.poll(() => page.textContent(id('web-site-error-name')), ui).toBe('Enter the site name');
      await page.click(`.ant-modal:has(${id('web-site-form')}) .ant-modal-footer .ant-btn-default`);
      await page.waitForSelector(id('web-site-form'), { state: 'detached' });
    });
    await page.waitForSelector(row);

    // Edit: a new name and a host name; the site keeps its id.
    await page.click(id(`web-server-edit-${site!.id}`));
    await page.waitForSelector(id('web-site-form'));
    expect(await page.inputValue(field('web-site-name'))).toBe('e2e 站点');
    await page.fill(field('web-site-name'), 'e2e 博客');
    await page.fill(box('web-site-server_names'), 'blog.example.com');
    await page.click(id('web-site-save'));
    await page.waitForSelector(id('web-site-form'), { state: 'detached' });
    await expect.poll(async () => (await sites()).list[0], slow).toMatchObject({ id: site!.id, name: 'e2e 博客', server_names: ['blog.example.com'] });
    await expect.poll(() => page.textContent(row), slow).toContain('blog.example.com');

    // Protection off: the row switch; the site still proxies (without inspection).
    await page.click(id(`web-server-status-${site!.id}`));
    await expect.poll(async () => (await sites()).list[0]?.status, slow).toBe('off');
    await expect.poll(() => page.getAttribute(id(`web-server-status-${site!.id}`), 'aria-checked'), slow).toBe('false');
    expect((await sites()).is_any_open).toBe(false);
    await expect.poll(() => through(port, '/off'), slow).toEqual({ status: 200, body: 'origin answered GET /off' });

    // Stopped: the gateway no longer listens on the port; started again: it does.
    await page.click(id(`web-server-stop-${site!.id}`));
    await expect.poll(async () => (await sites()).list[0]?.running, slow).toBe(false);
    await expect.poll(() => page.textContent(id(`web-server-running-${site!.id}`)), slow).toBe('已停止');
    await expect.poll(() => through(port), slow).toBe('ECONNREFUSED');
    await page.click(id(`web-server-start-${site!.id}`));
    await expect.poll(() => page.textContent(id(`web-server-running-${site!.id}`)), slow).toBe('运行中');
    await expect.poll(() => through(port, '/again'), slow).toEqual({ status: 200, body: 'origin answered GET /again' });

    // Deleting asks first; cancel keeps it.
    await page.click(id(`web-server-delete-${site!.id}`));
    await expect.poll(() => page.textContent(resultDialog), ui).toContain('确定删除防护站点 e2e 博客');
    await page.click(`.ant-modal-confirm:has-text("e2e 博客") .ant-btn-default`);
    await page.waitForSelector(id('web-server-delete-confirm'), { state: 'detached' });
    expect((await sites()).list).toHaveLength(1);
    await page.click(id(`web-server-delete-${site!.id}`));
    await page.click(id('web-server-delete-confirm'));
    await expect.poll(async () => (await sites()).list, slow).toEqual([]);
    await expect.poll(() => rows().count(), slow).toBe(0);
    await expect.poll(() => through(port), slow).toBe('ECONNREFUSED');
  }, long);

  it('a listener the gateway cannot take: saved, and the page says plainly that the gateway kept its old configuration', async () => {
    await clearSites();
    // Another program holds the port the site asks for.
    const squatter = createNetServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const busy = (squatter.address() as { port: number }).port;
    onTestFinished(() => void squatter.close());
    await openServerTab();
    await page.click(id('web-server-add'));
    await page.waitForSelector(id('web-site-form'));
    await page.fill(field('web-site-name'), 'clash');
    await page.fill(field('web-site-listen-0-address'), '127.0.0.1');
    await page.fill(field('web-site-listen-0-port'), String(busy));
    await page.fill(box('web-site-upstreams'), originUrl);
    await page.click(id('web-site-save'));
    await page.waitForSelector(id('web-site-form'), { state: 'detached' });
    await expect.poll(() => page.textContent(resultDialog), slow).toMatch(/^已保存，但网关拒绝了新配置（仍运行旧配置）：.*EADDRINUSE/);
    // The dialog closes by itself; the banner stays until a change is taken.
    await expect.poll(() => page.textContent(id('web-gateway-report')), slow).toMatch(/网关拒绝了最近的更改.*EADDRINUSE/);
    await inEnglish(page, async () => {
      // The banner is about this page's session: after the reload it is gone, and the next change brings it back.
      const [clash] = (await sites()).list;
      await page.waitForSelector(id(`web-server-row-${clash!.id}`));
      await page.click(id(`web-server-status-${clash!.id}`));
      await expect.poll(() => page.textContent(id('web-gateway-report')), slow).toMatch(/^The gateway refused the last change.*EADDRINUSE/);
      // Back to Chinese only once the warning dialog has closed by itself (it would cover the language switch).
      await page.waitForSelector(resultDialog, { state: 'detached', timeout: 15_000 });
    });
    const [clash] = (await sites()).list;
    await page.waitForSelector(id(`web-server-row-${clash!.id}`));
    await page.click(id(`web-server-delete-${clash!.id}`));
    await page.click(id('web-server-delete-confirm'));
    await expect.poll(async () => (await sites()).list, slow).toEqual([]);
    // The next change was taken: the banner goes.
    await page.waitForSelector(id('web-gateway-report'), { state: 'detached', timeout: 15_000 });
  });

  it('discovers the local nginx and Apache sites through the agent and fills the add form from one', async () => {
    await clearSites();
    // setup.sh's test mode installs nginx and Apache with their services stopped: their Debian
    // default sites are what `nginx -T` and `apachectl -S` (run by the root agent) report.
    type Found = { server: string; listen: { address: string; port: number }[]; upstream_hint: string; origin_move: { from: string; to: string; tls: boolean } | null; source: string };
    const found = (await api(product, token, 'GET', '/website/server/discover')).data as { sites: Found[] };
    const nginx = found.sites.findIndex((s) => s.server === 'nginx');
    const apache = found.sites.findIndex((s) => s.server === 'apache');
    expect(nginx, 'nginx default site (setup.sh test mode installs nginx)').toBeGreaterThanOrEqual(0);
    expect(found.sites[nginx]!.source).toMatch(/^\/etc\/nginx\//);

    await openServerTab();
    await page.click(id('web-server-discover'));
    await page.waitForSelector(id('web-server-discover-list'), { timeout: 30_000 });
    const entry = id(`web-server-discovered-${nginx}`);
    for (const part of ['nginx', ':80', found.sites[nginx]!.source]) expect(await page.textContent(entry)).toContain(part);
    expect(await page.textContent(id('web-server-discover-list'))).toContain('从本机 Web 服务器的配置中找到');
    if (apache >= 0) expect(await page.textContent(id(`web-server-discovered-${apache}`))).toContain('Apache');

    // "Protect" opens the add form filled from the site; nothing is saved until the user saves.
    await page.click(id(`web-server-discovered-${nginx}-protect`));
    await page.waitForSelector(id('web-site-form'));
    expect(await page.inputValue(field('web-site-listen-0-port'))).toBe('80');
    expect(await page.inputValue(box('web-site-upstreams'))).toBe(found.sites[nginx]!.upstream_hint);
    expect(await page.textContent(`.ant-modal:has(${id('web-site-form')}) .ant-modal-title`)).toBe('添加防护站点');
    // The Debian default site serves its own pages: the suggestion is nginx moved to a free loopback
    // port (never its own :80, which the gateway takes), and the form says what to change first.
    const move = found.sites[nginx]!.origin_move!;
    expect(move.from).toMatch(/:80$/);
    expect(found.sites[nginx]!.upstream_hint).toBe(`http://${move.to}`);
    expect(found.sites[nginx]!.upstream_hint).not.toMatch(/:80$/);
    expect(await page.textContent(id('web-site-move-first'))).toBe(
      `保存前：请在 ${found.sites[nginx]!.source} 中把 nginx 的监听地址 ${move.from} 改为 ${move.to}，并重新加载 nginx。之后由网关监听 ${move.from}，转发到 http://${move.to}。`,
    );
    await page.click(`.ant-modal:has(${id('web-site-form')}) .ant-modal-footer .ant-btn-default`);
    await page.waitForSelector(id('web-site-form'), { state: 'detached' });
    expect((await sites()).list).toEqual([]);

    await inEnglish(page, async () => {
      await page.waitForSelector(id('web-server-discover'));
      await page.click(id('web-server-discover'));
      await page.waitForSelector(id('web-server-discover-list'), { timeout: 30_000 });
      expect(await page.textContent(id('web-server-discover-list'))).toContain('Found in the configuration of the web servers on this host');
      expect(await page.textContent(id(`web-server-discovered-${nginx}-protect`))).toBe('Protect');
      await page.keyboard.press('Escape');
      await page.waitForSelector(id('web-server-discover-list'), { state: 'detached' });
    });
  });

  it('switching the module on with sites that are all off offers to open them all; confirming turns every one on', async () => {
    await clearSites();
    const ports = [await freePort(), await freePort()];
    for (const [i, port] of ports.entries()) {
      const added = await api(product, token, 'POST', '/website/server', {
        name: `e2e 关闭 ${i + 1}`, status: 'off', running: true, listen: [{ address: '127.0.0.1', port, tls: false }],
        server_names: [], upstreams: [originUrl], tls_cert: '', tls_key: '', trusted_proxies: [],
      });
      expect(added.code, `${added.msg}\n${product.output.slice(-15).join("\n")}`).toBe(0);
    }
    expect((await sites()).is_any_open).toBe(false);
    expect(((await api(product, token, 'GET', '/info')).data as { module_list: { website: number } }).module_list.website).toBe(0);

    await openServerTab();
    await expect.poll(() => rows().count(), slow).toBe(2);
    await page.waitForSelector(id('web-module-off'));
    await page.click(id('module-switch'));
    // The switch's own "switched on" message may show beside the offer: read the offer's dialog.
    const offer = `.ant-modal-confirm:has(${id('web-server-open-all-confirm')})`;
    await page.waitForSelector(offer, slow);
    expect(await page.textContent(`${offer} .ant-modal-confirm-title`)).toBe('开启网站防护');
    expect(await page.textContent(`${offer} .ant-modal-confirm-content`)).toBe('网站防护已开启，但 2 个站点都未开启防护。是否全部开启？');
    await page.click(id('web-server-open-all-confirm'));
    await expect.poll(async () => (await sites()).list.map((s) => s.status), slow).toEqual(['on', 'on']);
    const list = (await sites()).list;
    for (const site of list) await expect.poll(() => page.getAttribute(id(`web-server-status-${site.id}`), 'aria-checked'), slow).toBe('true');
    await page.waitForSelector(id('web-module-off'), { state: 'detached' });
    // Module on, site on: an SQL injection gets the configured answer (403, the standard error page); plain requests pass.
    const attack = "/?id=1'%20union%20select%20password%20from%20users--";
    expect(await through(ports[0]!, '/plain?q=hello')).toEqual({ status: 200, body: 'origin answered GET /plain?q=hello' });
    await expect.poll(async () => ((await through(ports[0]!, attack)) as { status: number }).status, slow).toBe(403);

    // Off again (asked first), then on with one site open: no offer this time.
    await page.click(id('module-switch'));
    await page.click(id('module-off-confirm'));
    await page.waitForSelector(id('web-module-off'));
    // Module off: the sites pass traffic without inspection.
    await expect.poll(async () => ((await through(ports[0]!, attack)) as { status: number }).status, slow).toBe(200);
    await page.click(id(`web-server-status-${list[0]!.id}`));
    await expect.poll(async () => (await sites()).list.filter((s) => s.status === 'on').length, slow).toBe(1);
    await page.click(id('module-switch'));
    await page.waitForSelector(id('web-module-off'), { state: 'detached' });
    await page.waitForTimeout(1_000);
    expect(await page.isVisible(id('web-server-open-all-confirm'))).toBe(false);
    const open = (await sites()).list.find((s) => s.status === 'on')!.listen[0]!.port;
    await expect.poll(async () => ((await through(open, attack)) as { status: number }).status, slow).toBe(403);

    // The response tab's custom content is what a blocked request gets.
    await page.click(id('tab-response'));
    await page.waitForSelector(id('web-response-save'));
    await page.click(id('web-response-type'));
    await page.waitForSelector(id('web-response-type-custom'));
    await page.dispatchEvent(id('web-response-type-custom'), 'click');
    await page.fill(field('web-response-status'), '451');
    await page.fill(box('web-response-content'), '<h1>e2e 已拦截</h1>');
    await page.click(id('web-response-save'));
    await expect.poll(() => through(open, attack), slow).toEqual({ status: 451, body: '<h1>e2e 已拦截</h1>' });

    // In English, and declined: every site stays off.
    await openServerTab();
    await page.click(id('module-switch'));
    await page.click(id('module-off-confirm'));
    await page.waitForSelector(id('web-module-off'));
    const ids = (await sites()).list.map((s) => s.id);
    expect((await api(product, token, 'POST', '/website/server_status', { ids, status: 'off' })).code).toBeLessThan(2);
    await inEnglish(page, async () => {
      await page.waitForSelector(id('web-module-off'));
      await expect.poll(() => rows().count(), slow).toBe(2);
      await page.click(id('module-switch'));
      await page.waitForSelector(offer, slow);
      expect(await page.textContent(`${offer} .ant-modal-confirm-title`)).toBe('Open website protection');
      expect(await page.textContent(`${offer} .ant-modal-confirm-content`)).toBe('Website protection is ON but none of the 2 sites is protected. Open protection for all of them?');
      await page.click(`${offer} .ant-btn-default`);
      await page.waitForSelector(offer, { state: 'detached' });
      await page.waitForTimeout(1_000);
      expect((await sites()).list.map((s) => s.status)).toEqual(['off', 'off']);
      await page.waitForSelector(resultDialog, { state: 'detached', timeout: 15_000 });
    });
    // Loading the tab with the module already on is not switching it on: no offer.
    await openServerTab();
    await expect.poll(() => rows().count(), slow).toBe(2);
    await page.waitForTimeout(1_000);
    expect(await page.isVisible(offer)).toBe(false);
  }, long);
});
