/*
 * The user tab (panel accounts and online terminals) in a real browser, in Chinese and in English:
 * the administrator adds an account, the account signs in from a second browser context, shows as
 * online with its terminal, and the administrator signs it out — that browser is back at sign-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { api, field, id, inEnglish, logIn, signIn } from './browser-session.ts';
import { newBrowserContext, startProduct, type RunningProduct } from './product.ts';

let product: RunningProduct;
let browser: Browser;
let page: Page;
let token = '';

const user = { name: 'e2e-tech', password: 'Tech-2026x' };

beforeAll(async () => {
  product = await startProduct();
  ({ browser, page, token } = await signIn(product));
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

interface Account {
  id: number;
  username: string;
  online: boolean;
}

async function accountId(name: string): Promise<number> {
  const { data } = await api(product, token, 'GET', '/system/user');
  const found = (data as { list: Account[] }).list.find((a) => a.username === name);
  if (!found) throw new Error(`no account ${name}`);
  return found.id;
}

async function openAccounts() {
  await page.goto(`${product.base}/#/system/user`);
  await page.waitForSelector(id('accounts-table'));
  await page.waitForSelector(id('terminals-table'));
}

/** The account signs in from its own browser context (its own storage: another terminal). */
async function signInElsewhere(locale: string): Promise<{ context: BrowserContext; other: Page }> {
  const context = await newBrowserContext(browser, { locale, viewport: { width: 1280, height: 800 } });
  const other = await context.newPage();
  await logIn(other, product.base, user.name, user.password);
  await other.waitForURL(/#\/dashboard/, { timeout: 20_000 });
  return { context, other };
}

/** The row of the account's terminal in the online list (refreshed until it is there or gone). */
const terminalRow = `${id('terminals-table')} tr[data-testid^="terminal-row-"]:has-text("${user.name}")`;

async function expectTerminal(present: boolean) {
  await expect.poll(async () => {
    await page.click(id('terminals-refresh'));
    await page.waitForTimeout(300);
    return page.locator(terminalRow).count();
  }, { timeout: 15_000 }).toBe(present ? 1 : 0);
}

/** The account's online tag, read after asking both lists again. */
async function onlineTag(uid: number) {
  await page.click(id('terminals-refresh'));
  await page.waitForTimeout(300);
  return page.textContent(id(`account-online-${uid}`));
}

/** Signs the account's terminal out from the administrator's page, confirming the dialog. */
async function signOutFromAdmin(confirmText: string) {
  await page.click(`${terminalRow} [data-testid^="terminal-sign-out-"]`);
  await expect.poll(() => page.textContent('.ant-modal-confirm-content')).toContain(confirmText);
  await page.click(id('terminal-sign-out-confirm'));
}

/**
 * The signed-out browser goes back to the sign-in page by itself: the dashboard it shows reads the
 * console every few seconds and its websocket is closed, so its next call is a 401. No reload here.
 */
async function expectBackAtSignIn(other: Page) {
  await other.waitForURL(/#\/user\/login/, { timeout: 15_000 });
  expect(await other.isVisible(id('login-submit'))).toBe(true);
}

describe('panel accounts and online terminals in a real browser', () => {
  it('refuses a bad name on the field, then adds an account (Chinese)', async () => {
    await openAccounts();
    await page.click(id('account-add'));
    await page.waitForSelector(id('account-form'));
    await page.fill(field('account-username'), 'ab');
    await page.fill(field('account-password'), '123456');
    await page.click(id('account-save'));
    await expect.poll(() => page.textContent(id('account-error-username'))).toBe('账号须为 4-20 位字母、数字、-或_');
    expect(await page.textContent(id('account-error-password'))).toBe('密码须为 6-50 位，且不能为纯字母或纯数字');

    await page.fill(field('account-username'), user.name);
    await page.fill(field('account-password'), user.password);
    await page.click(id('account-role'));
    await page.click(id('account-role-technician'));
    await page.fill(field('account-remark'), '夜班');
    await page.click(id('account-save'));
    await page.waitForSelector(id('account-form'), { state: 'detached' });
    const row = id(`account-row-${user.name}`);
    await expect.poll(() => page.textContent(row)).toContain('技术员');
    expect(await page.textContent(row)).toContain('夜班');
    expect(await page.textContent(row)).toContain('离线');

    // The same name in another case is a duplicate, said on the field.
    await page.click(id('account-add'));
    await page.fill(field('account-username'), user.name.toUpperCase());
    await page.fill(field('account-password'), user.password);
    await page.click(id('account-save'));
    await expect.poll(() => page.textContent(id('account-error-username'))).toContain('存在重复项');
    await page.click(id('account-cancel'));
  });

  it('shows the account online once it signs in elsewhere, and signs it out (Chinese)', async () => {
    const uid = await accountId(user.name);
    const { context, other } = await signInElsewhere('zh-CN');
    try {
      await openAccounts();
      await expect.poll(() => onlineTag(uid), { timeout: 15_000 }).toBe('在线');
      await expectTerminal(true);
      const row = await page.textContent(terminalRow);
      expect(row).toContain('127.0.0.1');
      expect(row).toMatch(/Chrom\w* (Headless )?\d+ \/ Linux/);
      expect(row).toContain('不到 1 分钟');

      await signOutFromAdmin(`确定将 ${user.name}（127.0.0.1）强制下线吗`);
      await expectTerminal(false);
      await expect.poll(() => onlineTag(uid), { timeout: 15_000 }).toBe('离线');
      await expectBackAtSignIn(other);
    } finally {
      await context.close();
    }
  });

  it('does the same in English, then disables and deletes the account', async () => {
    const uid = await accountId(user.name);
    await openAccounts();
    await inEnglish(page, async () => {
      await page.waitForSelector(id('accounts-table'));
      const { context, other } = await signInElsewhere('en-US');
      try {
        await expectTerminal(true);
        await expect.poll(() => onlineTag(uid), { timeout: 15_000 }).toBe('Online');
        expect(await page.textContent(id(`account-row-${user.name}`))).toContain('Technician');
        expect(await page.textContent(id('terminals-card'))).toContain('Online terminals');
        await signOutFromAdmin(`Sign out ${user.name} from 127.0.0.1?`);
        await expectTerminal(false);
        await expectBackAtSignIn(other);

        // Disabled: the account cannot sign in again.
        await page.click(id(`account-switch-${uid}`));
        await expect.poll(() => page.getAttribute(id(`account-switch-${uid}`), 'aria-checked')).toBe('false');
        await logIn(other, product.base, user.name, user.password);
        await expect.poll(() => other.textContent('body'), { timeout: 10_000 }).toMatch(/This account is disabled|该账号已被禁用/);

        await page.click(id(`account-delete-${uid}`));
        await expect.poll(() => page.textContent('.ant-modal-confirm-content')).toContain(`Delete the account ${user.name}?`);
        await page.click(id('account-delete-confirm'));
        await page.waitForSelector(id(`account-row-${user.name}`), { state: 'detached' });
      } finally {
        await context.close();
      }
    });
  });
});
