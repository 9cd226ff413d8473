/*
 * The portal tab in a real browser, in Chinese and in English: the form, a refused port, and the
 * panel moving to a new port (then to another one behind a safe entry) with the browser following it.
 *
 * A new port is a new origin: the browser's stored token and language stay with the old one, so
 * after each move the test hands the (still valid) token to the new origin, as signing in again would.
 * The firewall module stays off (the product runs as root here; its kernel side is tested elsewhere).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { field, id, signIn, switchLanguage } from './browser-session.ts';
import { freePort, startProduct, type RunningProduct } from './product.ts';

let product: RunningProduct;
let browser: Browser;
let page: Page;
let token = '';
/** Where the panel is now (it moves during the test). */
let base = '';

async function openPortal(at: string) {
  await page.goto(`${at}/#/system/portal`);
  await page.waitForSelector(id('portal-form'));
}

/** The token in the new origin's storage, so the console there opens signed in. */
async function carrySession(at: string) {
  await page.evaluate((t) => localStorage.setItem('rampart.token', t), token);
  await openPortal(at);
}

beforeAll(async () => {
  product = await startProduct();
  ({ browser, page, token } = await signIn(product));
  base = product.base;
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe('the portal tab in a real browser', () => {
  it('shows the panel address and refuses a privileged port on its field (Chinese)', async () => {
    await openPortal(base);
    const port = new URL(base).port;
    expect(await page.inputValue(field('portal-port'))).toBe(port);
    expect(await page.textContent(id('portal-address'))).toContain(`${base}/`);
    expect(await page.textContent(id('portal-card'))).toContain('面板端口');
    await page.fill(field('portal-port'), '80');
    await page.click(id('portal-save'));
    await expect.poll(() => page.textContent(id('portal-error-port'))).toContain('低于 1024 的端口需要特权');
  });

  it('changes the port: the restart dialog polls the new address and the browser lands there (Chinese)', async () => {
    const next = await freePort();
    await openPortal(base);
    await page.fill(field('portal-port'), String(next));
    await page.click(id('portal-save'));
    await page.waitForSelector(id('portal-restart'));
    expect(await page.textContent(id('portal-restart'))).toMatch(/正在等待面板|面板已启动/);
    const target = `http://127.0.0.1:${next}`;
    await page.waitForURL((url) => url.origin === target, { timeout: 30_000 });
    // The old address is gone; the new one serves the console.
    await expect.poll(() => fetch(`${base}/magapi/login`).then(() => 'open', () => 'closed'), { timeout: 10_000 }).toBe('closed');
    expect((await fetch(`${target}/magapi/login`)).status).toBe(200);
    base = target;
    // A new origin: no token there yet, so the console asks for a sign-in.
    await page.waitForSelector(id('login-submit'));
    await carrySession(base);
    expect(await page.inputValue(field('portal-port'))).toBe(String(next));
  });

  it('in English: moves again behind a safe entry; without the entry the server answers a bare 404', async () => {
    await switchLanguage(page, 'English', /[A-Za-z]/);
    await page.waitForSelector(id('portal-form'));
    await expect.poll(() => page.textContent(id('portal-card'))).toContain('Panel port');
    const next = await freePort();
    await page.fill(field('portal-port'), String(next));
    await page.fill(field('portal-entry'), 'e2e-door-42');
    await page.click(id('portal-save'));
    await page.waitForSelector(id('portal-restart'));
    expect(await page.textContent(id('portal-restart'))).toMatch(/Waiting for the panel at http:\/\/127\.0\.0\.1:\d+\/e2e-door-42|The panel is up/);
    const target = `http://127.0.0.1:${next}`;
    await page.waitForURL((url) => url.origin === target, { timeout: 30_000 });
    base = target;

    // The browser came through the entry (it holds the cookie); a client without it sees nothing of the panel.
    const bare = await fetch(`${base}/`);
    expect(bare.status).toBe(404);
    expect(await bare.text()).not.toMatch(/rampart|magapi|<script/i);
    expect((await fetch(`${base}/magapi/login`)).status).toBe(404);
    const entry = await fetch(`${base}/e2e-door-42`, { redirect: 'manual' });
    expect(entry.status).toBe(302);

    await page.waitForSelector(id('login-submit'));
    await carrySession(base);
    expect(await page.inputValue(field('portal-entry'))).toBe('e2e-door-42');
    expect(await page.inputValue(field('portal-port'))).toBe(String(next));
  });
});
