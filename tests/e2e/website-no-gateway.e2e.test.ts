/*
 * The website server tab when the gateway is not running, in a real browser, in both languages.
 *
 * As root `npm start` always runs the gateway; it starts it only when its configuration file exists,
 * so this product is given a file path that does not exist yet (RAMPART_GATEWAY_CONFIG, which the
 * console also writes to): no gateway starts, nobody listens on its admin socket. A change is saved
 * and written for the gateway's next start, and the page says so in a banner that stays.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, field, id, inEnglish, signIn } from './browser-session.ts';
import { freePort, startProduct, type RunningProduct } from './product.ts';
import { box, openWebsiteTab, resultDialog } from './website-page.ts';

/** What the page shows after an action: a little slack for a loaded machine. */
const ui = { timeout: 10_000 };

let product: RunningProduct;
let browser: Browser;
let page: Page;
let token = '';
let folder = '';
let configFile = '';
const before = process.env.RAMPART_GATEWAY_CONFIG;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'rampart-e2e-gw-'));
  chmodSync(folder, 0o777); // the console runs as `rampart` and creates the file's folder here
  configFile = join(folder, 'gateway', 'gateway.json');
  process.env.RAMPART_GATEWAY_CONFIG = configFile;
  try {
    product = await startProduct();
  } finally {
    if (before === undefined) delete process.env.RAMPART_GATEWAY_CONFIG;
    else process.env.RAMPART_GATEWAY_CONFIG = before;
  }
  ({ browser, page, token } = await signIn(product));
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('website server tab without a running gateway', () => {
  it('saves a site, writes it for the gateway\'s next start, and says the gateway is not running', async () => {
    expect(product.output.some((line) => line.startsWith('[gateway]'))).toBe(false);
    // The console may write the (empty) file as it starts; no site in it yet.
    if (existsSync(configFile)) expect(JSON.parse(readFileSync(configFile, 'utf8'))).toMatchObject({ sites: [] });
    const port = await freePort();
    await openWebsiteTab(page, product.base, 'server', 'web-server-page');
    expect(await page.isVisible(id('web-gateway-report'))).toBe(false);
    await page.click(id('web-server-add'));
    await page.waitForSelector(id('web-site-form'));
    await page.fill(field('web-site-name'), 'e2e 无网关');
    await page.fill(field('web-site-listen-0-address'), '127.0.0.1');
    await page.fill(field('web-site-listen-0-port'), String(port));
    await page.fill(box('web-site-upstreams'), 'http://127.0.0.1:9');
    await page.click(id('web-site-save'));
    await page.waitForSelector(id('web-site-form'), { state: 'detached' });
    await expect.poll(() => page.textContent(resultDialog), { timeout: 15_000 }).toBe('保存成功');
    await expect.poll(() => page.textContent(id('web-gateway-report')), ui).toBe('网关未运行：更改已保存，网关启动后生效。');

    // Saved in the console, and in the file the gateway reads when it starts.
    const [site] = ((await api(product, token, 'GET', '/website/server')).data as { list: { id: number; name: string }[] }).list;
    expect(site).toMatchObject({ name: 'e2e 无网关' });
    const written = JSON.parse(readFileSync(configFile, 'utf8')) as { sites: { name: string; listen: { port: number }[] }[] };
    expect(written.sites).toMatchObject([{ name: 'e2e 无网关', listen: [{ port }] }]);

    await inEnglish(page, async () => {
      // The banner is about this page's session; the next change brings it back in English.
      await page.waitForSelector(id(`web-server-status-${site!.id}`));
      await page.click(id(`web-server-status-${site!.id}`));
      await expect.poll(() => page.textContent(id('web-gateway-report')), { timeout: 15_000 }).toBe('The gateway is not running: changes are saved and take effect when it starts.');
      await page.waitForSelector(resultDialog, { state: 'detached', timeout: 15_000 });
    });
  });
});
