/*
 * System settings: the soft_reg tab (against the product's own licence authority) and the shortcut tab
 * (a link opened in a fresh browser with no session, confirmed, and its effect seen), in Chinese and English.
 *
 * The firewall module stays off (see firewall.e2e.test.ts): unblocking works on the interception list
 * the agent keeps, and nothing here touches this machine's kernel ruleset.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, field, id, inEnglish, signIn } from './browser-session.ts';
import { newBrowserContext, repo, startProduct, type RunningProduct } from './product.ts';

let product: RunningProduct;
let browser: Browser;
let page: Page;
let token = '';

/** The success or warning dialog the API client shows after a call (it closes by itself). */
const resultDialog = '.ant-modal-confirm-content';

/** The vendor's CLI issues a code in the product's own licence database (the running authority sees it). */
function issueCode(days: number, transfers: number): string {
  const db = join(product.dataDir, 'licence', 'licence.db');
  const r = spawnSync(join(repo, 'node_modules/.bin/node'), [join(repo, 'apps/cli/src/main.ts'), 'licence', 'issue', '--days', String(days), '--transfers', String(transfers), '--db', db], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`licence issue failed: ${r.stderr}`);
  return r.stdout.trim();
}

/** The local licence authority's address, from the product's start-up output. */
function authorityUrl(): string {
  for (const line of product.output) {
    const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
    if (m && !line.includes(product.base)) return m[1]!;
  }
  throw new Error(`no licence authority address in the output:\n${product.output.join('\n')}`);
}

beforeAll(async () => {
  product = await startProduct();
  ({ browser, page, token } = await signIn(product));
  const status = (await api(product, token, 'GET', '/firewall/status')).data as { kernel: string };
  if (status.kernel !== 'off') throw new Error(`the firewall module must be off for this test (kernel: ${status.kernel})`);
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

async function openTab(tab: string, pageId: string) {
  await page.goto(`${product.base}/#/system/${tab}`);
  await page.waitForSelector(id(pageId));
}

describe('soft_reg in a real browser', () => {
  it('shows the licence, refreshes it from the authority, and moves another key here after the relocation is confirmed', async () => {
    await openTab('soft_reg', 'reg-details');
    const trial = product.trialKey.toUpperCase();
    expect(await page.textContent(id('reg-product-key'))).toBe(`${trial.slice(0, 3)}-***`);
    await page.click(id('reg-key-toggle'));
    expect((await page.textContent(id('reg-product-key')))?.toUpperCase()).toBe(trial);
    expect(await page.textContent(id('reg-device-id'))).toMatch(/^[a-f0-9]{32}$/);
    expect(await page.textContent(id('reg-transfers'))).toBe('1');
    expect(await page.textContent(id('reg-days-left'))).toMatch(/^剩余 (29|30) 天$/);
    expect(await page.textContent(id('reg-details'))).toContain('产品 ID');

    await page.click(id('reg-refresh'));
    await expect.poll(() => page.textContent(resultDialog)).toContain('授权信息已刷新');

    // A key already bound to another server: the authority asks first, the page asks the user.
    const code = issueCode(365, 2);
    const bind = await fetch(`${authorityUrl()}/v1/activate`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, device_id: 'b'.repeat(32), confirm_move: false }),
    });
    expect((await bind.json() as { status: string }).status).toBe('activated');

    await page.click(id('reg-renew'));
    await page.waitForSelector(id('reg-renew-form'));
    await page.click(id('reg-renew-submit'));
    await expect.poll(() => page.textContent(id('reg-renew-form'))).toContain('请输入授权码');
    await page.fill(field('reg-renew-key'), code);
    await page.click(id('reg-renew-agree'));
    await page.click(id('reg-renew-submit'));
    await page.waitForSelector(id('reg-move-confirm'));
    expect(await page.textContent('.ant-modal-confirm-body')).toContain('剩余 2 次');
    await page.click(id('reg-move-confirm'));
    await page.waitForSelector(id('reg-renew-form'), { state: 'detached' });
    await expect.poll(() => page.textContent(id('reg-product-key'))).toBe(code);
    await expect.poll(() => page.textContent(id('reg-transfers'))).toBe('1');
    expect(await page.textContent(id('reg-days-left'))).toMatch(/^剩余 36[45] 天$/);

    await inEnglish(page, async () => {
      await openTab('soft_reg', 'reg-details');
      expect(await page.textContent(id('reg-details'))).toContain('Transfers available');
      expect(await page.textContent(id('reg-days-left'))).toMatch(/^36[45] days left$/);
      await page.click(id('reg-refresh'));
      await expect.poll(() => page.textContent(resultDialog)).toContain('refreshed');
    });
  });
});

/** Creates a shortcut through the tab's form; resolves to the link the page shows once. */
async function createShortcut(fill: () => Promise<void>): Promise<string> {
  await page.click(id('sc-add'));
  await page.waitForSelector(id('sc-form'));
  await fill();
  await page.click(id('sc-form-save'));
  await page.waitForSelector(id('sc-link-modal'));
  const url = (await page.textContent(id('sc-link-url')))!;
  expect(url).toMatch(new RegExp(`^${product.base}/shortcut/[A-Za-z0-9_-]{43}$`));
  await page.click(id('sc-link-close'));
  await page.waitForSelector(id('sc-link-modal'), { state: 'detached' });
  return url;
}

/** Opens a link as a phone would: a fresh browser context without any session, in `locale`. */
async function openLink(url: string, locale: 'zh-CN' | 'en-US') {
  const context = await newBrowserContext(browser, { locale });
  const phone = await context.newPage();
  await phone.goto(url);
  return { phone, close: () => context.close() };
}

const protectionMode = async () => ((await api(product, token, 'GET', '/home/index')).data as { protection: { mode: string } }).protection.mode;

describe('shortcut links in a real browser', () => {
  it('zh: an unblock link unblocks the address only once the confirm button is pressed', async () => {
    expect((await api(product, token, 'POST', '/firewall/intercept/add', { ips: ['203.0.113.77'], minutes: 60, remark: 'e2e' })).code).toBe(0);
    await openTab('shortcut', 'system-shortcut-page');
    const url = await createShortcut(async () => {
      await page.click(id('sc-form-save'));
      await expect.poll(() => page.textContent(id('sc-form-error-name'))).toBe('请输入快捷操作名称');
      await page.fill(field('sc-form-name'), '解封办公室');
      await page.click(id('sc-op-unblock_ip'));
      await page.fill(field('sc-form-ip'), '203.0.113.300');
      await page.click(id('sc-form-save'));
      await expect.poll(() => page.textContent(id('sc-form-error-action.ip'))).toBe('请输入一个 IP 地址（IPv4 或 IPv6）');
      await page.fill(field('sc-form-ip'), '203.0.113.77');
    });
    const row = page.locator('[data-testid^="sc-row-"]', { hasText: '解封办公室' });
    await expect.poll(() => row.textContent()).toContain('解除 IP 拦截 · 203.0.113.77');

    const { phone, close } = await openLink(url, 'zh-CN');
    try {
      expect(await phone.textContent(id('shortcut-question'))).toBe('解除对 203.0.113.77 的拦截？');
      // Opening the page changed nothing.
      const before = (await api(product, token, 'GET', '/firewall/intercept')).data as { total: number };
      expect(before.total).toBe(1);
      await phone.click(id('shortcut-run'));
      await phone.waitForSelector(id('shortcut-result'));
      expect(await phone.textContent(id('shortcut-result'))).toBe('已解除对 203.0.113.77 的拦截（1 条）。');
    } finally {
      await close();
    }
    expect(((await api(product, token, 'GET', '/firewall/intercept')).data as { total: number }).total).toBe(0);
    await page.reload();
    await expect.poll(() => row.textContent()).toContain('1 / 不限');
    expect(await row.textContent()).toContain('127.0.0.1');
  });

  it('en: a pause link pauses protection, a resume link brings it back, and a deleted link is gone', async () => {
    await inEnglish(page, async () => {
      await openTab('shortcut', 'system-shortcut-page');
      const pause = await createShortcut(async () => {
        await page.fill(field('sc-form-name'), 'Pause 5');
        await page.click(id('sc-op-pause_protection'));
        await page.fill(field('sc-form-minutes'), '5');
      });
      const resume = await createShortcut(async () => {
        await page.fill(field('sc-form-name'), 'Resume');
        await page.click(id('sc-op-resume_protection'));
        await page.click(id('sc-validity-none'));
      });
      expect(await page.textContent(id('system-shortcut-page'))).toContain('Pause protection · 5 minutes');

      const first = await openLink(pause, 'en-US');
      try {
        expect(await first.phone.textContent(id('shortcut-question'))).toBe('Pause protection for 5 minutes?');
        expect(await protectionMode()).toBe('on');
        await first.phone.click(id('shortcut-run'));
        expect(await first.phone.textContent(id('shortcut-result'))).toBe('Protection is paused for 5 minutes; it comes back by itself.');
      } finally {
        await first.close();
      }
      expect(await protectionMode()).toBe('temp_off');

      const second = await openLink(resume, 'en-US');
      try {
        await second.phone.click(id('shortcut-run'));
        expect(await second.phone.textContent(id('shortcut-result'))).toBe('Protection is on again.');
      } finally {
        await second.close();
      }
      expect(await protectionMode()).toBe('on');

      // Deleted from the tab: the link answers "not found" from then on.
      const row = page.locator('[data-testid^="sc-row-"]', { hasText: 'Pause 5' });
      const rowId = (await row.getAttribute('data-testid'))!.replace('sc-row-', '');
      await page.click(id(`sc-delete-${rowId}`));
      await page.click(id('sc-delete-confirm'));
      await row.waitFor({ state: 'detached' });
      const gone = await openLink(pause, 'en-US');
      try {
        expect(await gone.phone.textContent(id('shortcut-not-found'))).toBe('This link does not exist or no longer works.');
      } finally {
        await gone.close();
      }
    });
  });
});
