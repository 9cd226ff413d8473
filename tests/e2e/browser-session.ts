/*
 * What the browser tests share: selectors by test id, the sign-in, calls to the console's API with the
 * session's token, and the header's language switch.
 */
import { expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newBrowserContext, type RunningProduct } from './product.ts';

export const id = (testId: string) => `[data-testid="${testId}"]`;
/** antd puts some test ids on the input, some on its wrapper. */
export const field = (testId: string) => `input${id(testId)}, ${id(testId)} input`;

/** Fills in and sends the login form (does not wait for what follows: the caller knows what it expects). */
export async function logIn(page: Page, base: string, username: string, password: string) {
  await page.goto(`${base}/#/user/login`);
  await page.fill(field('login-username'), username);
  await page.fill(field('login-password'), password);
  await page.click(id('login-submit'));
}

export interface BrowserSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** The console's token for this session, for `api`. */
  token: string;
}

/**
 * Registers a freshly started product with its trial key (through the API), opens Chromium in Chinese
 * and signs in with the account registration made; resolves once the dashboard shows.
 */
export async function signIn(product: RunningProduct): Promise<BrowserSession> {
  const reg = await (await fetch(`${product.base}/magapi/register`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: product.trialKey, agree: true }),
  })).json() as { data: { username: string; password: string } };
  const browser = await launchBrowser();
  try {
    const context = await newBrowserContext(browser, { locale: 'zh-CN', viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    await logIn(page, product.base, reg.data.username, reg.data.password);
    // The context asks for reduced motion, so dialogs do not zoom under a click (product.ts newBrowserContext).
    if (!(await page.evaluate(() => (globalThis as unknown as { matchMedia: (query: string) => { matches: boolean } }).matchMedia('(prefers-reduced-motion: reduce)').matches))) throw new Error('the test browser does not ask for reduced motion');
    await page.waitForURL(/#\/dashboard/);
    const token = (await page.evaluate(() => localStorage.getItem('rampart.token') ?? sessionStorage.getItem('rampart.token')))!;
    return { browser, context, page, token };
  } catch (e) {
    // The caller never gets the browser to close: do it here.
    await browser.close();
    throw e;
  }
}

/** Collects the page's console errors and uncaught exceptions into `errors`: a page test ends by expecting none. */
export function collectPageErrors(page: Page, errors: string[]): void {
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
}

/** Calls the console's API with a session's token; resolves to the answer's envelope. */
export async function api(product: RunningProduct, token: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${product.base}/magapi${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return res.json() as Promise<{ code: number; msg: string; data: never }>;
}

/** Picks a language with the header's switch (stored, told to the server, page reloaded). */
export async function switchLanguage(page: Page, label: 'English' | '简体中文', menuText: RegExp) {
  // The dashboard re-renders the header as its figures arrive, which can close the open list under
  // the click: open it again and retry rather than wait on a detached option.
  for (let attempt = 1; ; attempt++) {
    try {
      await page.click(id('lang-switch'), { timeout: 5_000 });
      await page.click(`.ant-select-item-option:has-text("${label}")`, { timeout: 5_000 });
      break;
    } catch (error) {
      if (attempt >= 6) throw error;
      await page.keyboard.press('Escape');
    }
  }
  await page.waitForLoadState('load');
  await expect.poll(() => page.textContent(id('menu-log')), { timeout: 10_000 }).toMatch(menuText);
}

/**
 * Clicks a dialog's button and waits until `gone` has left the page. Once in a CI run under full
 * load a cancel click left its confirm dialog open for 30 s (not reproduced since): the click is
 * given again, up to three times, and a dialog still open after that fails with how many were open.
 */
export async function clickUntilGone(page: Page, button: string, gone: string) {
  for (let attempt = 1; ; attempt++) {
    await page.click(button);
    try {
      await page.waitForSelector(gone, { state: 'detached', timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt >= 3) throw new Error(`${gone} still open after ${attempt} clicks on ${button}; ${await page.locator(gone).count()} on the page`, { cause: error });
    }
  }
}

/** The two lines of a list's empty state (`<prefix>-empty`, web components/EmptyHint.tsx): what it holds, what to do next. */
export async function emptyHint(page: Page, prefix: string) {
  return [await page.textContent(id(`${prefix}-empty-text`)), await page.textContent(id(`${prefix}-empty-next`))];
}

/** Runs `check` on the current page in English, then goes back to Chinese. */
export async function inEnglish(page: Page, check: () => Promise<void>) {
  await switchLanguage(page, 'English', /[A-Za-z]/);
  try {
    await check();
  } finally {
    await switchLanguage(page, '简体中文', /[\u4e00-\u9fff]/);
  }
}
