/*
 * The user-protection page (/account) in a real browser, in Chinese and in English: the lock card
 * with the guard's backend, the account-file settings saved and read back, the privileged accounts
 * read from this host; no console errors; a screenshot per language.
 *
 * The account module stays OFF here: the product runs as root on this machine and must not lock the
 * host's /etc/passwd, and root login is never switched (that would reload the host's sshd). What the
 * kernel denies is apps/agent/tests/account-guard.test.ts (fanotify) and
 * apps/guard/tests/account-vm.test.ts (BPF LSM); the drop-in is apps/agent/tests/account.test.ts.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, collectPageErrors, id, signIn, switchLanguage } from './browser-session.ts';
import { startProduct, type RunningProduct } from './product.ts';

let product: RunningProduct;
let browser: Browser;
let page: Page;
let token = '';
const errors: string[] = [];
const shots = process.env.RAMPART_SHOTS_DIR ?? join(tmpdir(), 'rampart-account-shots');

beforeAll(async () => {
  product = await startProduct();
  ({ browser, page, token } = await signIn(product));
  collectPageErrors(page, errors);
  const info = (await api(product, token, 'GET', '/info')).data as { module_list: Record<string, number> };
  if (info.module_list.account !== 0) throw new Error('the account module must be off for this test');
  mkdirSync(shots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

type Settings = { lock_files: boolean; locked_groups: string[] };
const settingsNow = async () => ((await api(product, token, 'GET', '/account/status')).data as { settings: Settings }).settings;

async function flow(lang: 'zh' | 'en', texts: { root: string; rootReason: string }) {
  await page.goto(`${product.base}/#/account/index`);
  await page.waitForSelector(id('account-page'));
  expect((await page.textContent(id('account-backend')))?.length).toBeGreaterThan(0);
  // This host's root is listed as uid 0, in the page's language.
  await expect.poll(() => page.locator(id('account-privileged')).textContent()).toContain(texts.root);
  expect(await page.locator(id('account-privileged')).textContent()).toContain(texts.rootReason);

  const before = await settingsNow();
  await page.click(id('account-lock-files'));
  await page.click(id('account-save'));
  await expect.poll(settingsNow, { timeout: 10_000 }).toEqual({ ...before, lock_files: !before.lock_files });
  await page.waitForSelector('.ant-modal-confirm-success', { state: 'detached', timeout: 10_000 });
  // The module is off: nothing is enforced whatever the settings say.
  expect(await page.textContent(id('account-file-state-passwd'))).toBe(lang === 'zh' ? '未生效' : 'Off');
  await page.screenshot({ path: join(shots, `account-${lang}.png`), fullPage: true });
}

describe('the user-protection page in a real browser (module off)', () => {
  it('works in Chinese', async () => {
    await flow('zh', { root: 'root', rootReason: 'UID 0' });
    expect(errors).toEqual([]);
  });

  it('works in English', async () => {
    await switchLanguage(page, 'English', /[A-Za-z]/);
    await flow('en', { root: 'root', rootReason: 'uid 0' });
    expect(errors).toEqual([]);
  });
});
