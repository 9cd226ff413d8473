import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chronydMissing, startChronyd, type Chronyd } from '../../packages/sntp/tests/support/chronyd.ts';
import { api, field, id, inEnglish, signIn } from './browser-session.ts';
import { startProduct, type RunningProduct } from './product.ts';

/*
 * The basic tab in a real browser against the whole product: the alias reaches the page title,
 * a temporary disable reaches the dashboard (the agent owns it), and "sync now" asks a real
 * chronyd on loopback (the product runs with RAMPART_DRY_CLOCK=1: the host clock is never set).
 */
let product: RunningProduct;
let browser: Browser;
let page: Page;
let token = '';

beforeAll(async () => {
  product = await startProduct();
  ({ browser, page, token } = await signIn(product));
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

async function openBasic() {
  await page.goto(`${product.base}/#/system/basic`);
  await page.waitForSelector(id('protection-card'));
  await page.waitForSelector(id('ntp-card'));
}

/** The console's answer with a message comes up as a dialog: check its text and close it. */
async function closeDialog(text: string) {
  const dialog = `.ant-modal-wrap:has-text("${text}")`;
  await page.waitForSelector(dialog, { timeout: 20_000 });
  await page.click(`${dialog} .ant-btn-primary`);
  await page.waitForSelector(dialog, { state: 'hidden' });
}

describe('system basic tab in a real browser', () => {
  it('saves the server alias and the page title shows it, in Chinese and in English', async () => {
    await openBasic();
    await page.fill(field('alias-input'), 'e2e-主机');
    await page.click(id('alias-save'));
    await expect.poll(() => page.title(), { timeout: 10_000 }).toMatch(/^e2e-主机 - /);
    expect((await api(product, token, 'GET', '/info')).data).toMatchObject({ server_alias: 'e2e-主机' });
    await inEnglish(page, async () => {
      await openBasic();
      await expect.poll(() => page.title()).toMatch(/^e2e-主机 - .*Rampart/);
      expect(await page.inputValue(field('alias-input'))).toBe('e2e-主机');
    });
  });

  it('disables protection temporarily after confirmation; the dashboard shows it off, then on again', async () => {
    await openBasic();
    expect(await page.textContent(id('protection-state-on'))).toBe('防护中');
    await page.fill(field('protection-minutes'), '0');
    await page.click(id('protection-disable'));
    await expect.poll(() => page.textContent(id('protection-error-temp_minutes'))).toBe('临时关闭时间须为 1-525600 之间的整数分钟');
    await page.fill(field('protection-minutes'), '30');
    await page.click(id('protection-disable'));
    await page.click(id('protection-disable-confirm'));
    await expect.poll(() => page.textContent(id('protection-card')), { timeout: 10_000 }).toContain('临时关闭，30 分钟后');

    await page.goto(`${product.base}/#/dashboard`);
    await expect.poll(() => page.textContent(id('dash-protection')), { timeout: 10_000 }).toContain('临时关闭，30 分钟后自动恢复');
    await inEnglish(page, async () => {
      await expect.poll(() => page.textContent(id('dash-protection')), { timeout: 10_000 }).toContain('Temporarily off, back on in 30 minutes');
      await openBasic();
      await page.click(id('protection-enable'));
      await expect.poll(() => page.textContent(id('protection-card')), { timeout: 10_000 }).toContain('Protected');
      await page.goto(`${product.base}/#/dashboard`);
      // Protection is on again, but every module of a fresh product is off: the status is computed, not "Protected".
      await expect.poll(() => page.textContent(id('dash-status-headline')), { timeout: 10_000 }).toBe('Not protected');
      expect(await page.textContent(id('dash-status-no-module'))).toBe('Every module is off: nothing protects this server');
      expect(await page.textContent(id('dash-status-off'))).toMatch(/^Off: Firewall, /);
    });
    await page.goto(`${product.base}/#/dashboard`);
    await expect.poll(() => page.textContent(id('dash-status-headline')), { timeout: 10_000 }).toBe('未防护');
    expect(await page.textContent(id('dash-status-off'))).toMatch(/^未开启：防火墙、/);
    // The agent recorded who did it.
    const log = (await api(product, token, 'GET', '/log/system?period=today&size=50')).data as { list: Array<{ content: string }> };
    expect(JSON.stringify(log)).toContain('临时关闭了系统防护 30 分钟');
  });
});

describe.skipIf(chronydMissing !== '')(`NTP sync from the browser against a real chronyd${chronydMissing ? ` (skipped: ${chronydMissing})` : ''}`, () => {
  let chronyd: Chronyd;
  let silent: dgram.Socket;
  beforeAll(async () => {
    chronyd = await startChronyd();
    silent = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await chronyd?.stop();
    silent?.close();
  });

  it('sync now shows fetching, then success with the server; a server that does not answer shows the failure message', async () => {
    await openBasic();
    await page.fill(id('ntp-servers'), `127.0.0.1:${chronyd.port}`);
    await page.fill(field('ntp-interval'), '0');
    await page.click(id('ntp-save'));
    await expect.poll(() => page.textContent(id('ntp-error-interval_minutes'))).toBe('同步间隔须为 1-10080 之间的整数分钟');
    await page.fill(field('ntp-interval'), '30');
    await page.click(id('ntp-sync'));
    await page.waitForSelector(id('ntp-state-success'), { timeout: 20_000 });
    await closeDialog(`已从 127.0.0.1:${chronyd.port} 同步时间`);
    expect(await page.textContent(id('ntp-server'))).toBe(`服务器：127.0.0.1:${chronyd.port}`);
    expect((await api(product, token, 'GET', '/system/basic/ntp')).data).toMatchObject({ settings: { interval_minutes: 30, servers: [`127.0.0.1:${chronyd.port}`] } });

    await inEnglish(page, async () => {
      await openBasic();
      await page.fill(id('ntp-servers'), `127.0.0.1:${silent.address().port}`);
      await page.click(id('ntp-sync'));
      // The request waits for the server's timeout: the card says it is fetching meanwhile.
      await page.waitForSelector(id('ntp-state-fetching'), { timeout: 5_000 });
      // The console's answer (code 2) comes up as an error dialog; the card shows the failure state under it.
      await closeDialog('Failed to fetch time from NTP server!');
      await page.waitForSelector(id('ntp-failed'), { timeout: 10_000 });
      expect(await page.textContent(id('ntp-failed'))).toContain('Failed to fetch time from NTP server!');
    });
    await openBasic();
    await page.waitForSelector(id('ntp-failed'));
    expect(await page.textContent(id('ntp-failed'))).toContain('从NTP服务器获取时间失败！');
  });
});
