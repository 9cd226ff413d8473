import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { defaultAlertSettings, type AlertSettingsInput } from '@rampart/contracts';
import { totpCode, totpStep } from '../../apps/console/src/sign-in/totp.ts';
import { startSmtpSink, type SmtpSink } from '../../packages/notify/tests/peers.ts';
import { api, field, id, logIn, switchLanguage } from './browser-session.ts';
import { launchBrowser, newBrowserContext, startProduct, type RunningProduct } from './product.ts';

/*
 * Sign-in verification in a real browser: enrol an authenticator app from the header, turn the
 * strict login check on (with the operator CLI, the way back in too), sign out and sign in again
 * with the code the app would show — in Chinese, then in English. Then a code by e-mail through a
 * real SMTP server on loopback (the alerts tab's e-mail settings).
 */

let product: RunningProduct;
let browser: Browser;
let page: Page;
let account: { username: string; password: string };
let secret = '';
/** The last 30-second step whose code was used: the console refuses a code twice. */
let usedStep = 0;
let smtp: SmtpSink | undefined;

beforeAll(async () => {
  product = await startProduct();
  const reg = await (await fetch(`${product.base}/magapi/register`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: product.trialKey, agree: true }),
  })).json() as { data: { username: string; password: string } };
  account = reg.data;
  browser = await launchBrowser();
  const context = await newBrowserContext(browser, { locale: 'zh-CN', viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  await logIn(page, product.base, account.username, account.password);
  await page.waitForURL(/#\/dashboard/);
});
afterAll(async () => {
  await smtp?.close();
  await browser?.close();
  await product?.stop();
});

/** A code of a step not used before, waiting for the next step when needed. */
async function freshCode(): Promise<string> {
  while (totpStep(Date.now()) <= usedStep) await new Promise((r) => setTimeout(r, 500));
  usedStep = totpStep(Date.now());
  return totpCode(secret, Date.now());
}

async function signOut() {
  await page.click(id('menu-logout'));
  await page.click(id('logout-confirm'));
  await page.waitForURL(/#\/user\/login/);
}

describe('sign-in verification with an authenticator app', () => {
  it('enrols the app from the header: password, QR code and key, then a first code', async () => {
    await page.click(id('two-step'));
    await page.waitForSelector(id('two-step-off'));
    await page.click(id('two-step-start'));
    await expect.poll(() => page.textContent(id('two-step-form'))).toContain('请输入登录密码');
    await page.fill(field('two-step-password'), account.password);
    await page.click(id('two-step-start'));
    await page.waitForSelector(`${id('two-step-qr')} canvas`);
    secret = ((await page.textContent(id('two-step-secret'))) ?? '').trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.fill(field('two-step-code'), await freshCode());
    await page.click(id('two-step-confirm'));
    await page.waitForSelector(id('two-step-on'));
    expect(await page.isVisible(id('two-step-secret'))).toBe(false);
    await page.click(id('two-step-close'));
  });

  it('strict mode: after the password comes the verification step; a wrong code is refused on the field, the right one signs in (Chinese)', async () => {
    const set = product.cli('login-check', 'strict');
    expect(set.stdout, set.stderr).toContain('login check mode: strict');
    await signOut();
    await logIn(page, product.base, account.username, account.password);
    await page.waitForSelector(id('verify-step'));
    expect(await page.textContent('body')).toContain('登录验证');
    // The authenticator is the only way offered here (no notification method set).
    expect(await page.locator(id('verify-channel-totp')).count()).toBe(1);
    expect(await page.textContent(id('verify-channel'))).toBe('身份验证器');
    expect(await page.locator(id('verify-object')).count()).toBe(0);
    await page.click(id('verify-submit'));
    await expect.poll(() => page.textContent(id('verify-step'))).toContain('请输入验证码');

    const right = await freshCode();
    await page.fill(field('verify-code'), right === '000000' ? '000001' : '000000');
    await page.click(id('verify-submit'));
    await expect.poll(() => page.textContent(id('verify-step'))).toContain('验证码错误，还可尝试 4 次');
    expect(page.url()).toMatch(/#\/user\/login/);
    await page.fill(field('verify-code'), right);
    await page.click(id('verify-submit'));
    await page.waitForURL(/#\/dashboard/);
  });

  it('the same in English', async () => {
    await switchLanguage(page, 'English', /[A-Za-z]/);
    await signOut();
    await logIn(page, product.base, account.username, account.password);
    await page.waitForSelector(id('verify-step'));
    expect(await page.textContent('body')).toContain('Sign-in verification');
    await page.click(id('verify-submit'));
    await expect.poll(() => page.textContent(id('verify-step'))).toContain('Please enter verification code');
    await page.fill(field('verify-code'), '12ab');
    await page.click(id('verify-submit'));
    await expect.poll(() => page.textContent(id('verify-step'))).toContain('The verification code is 6 digits');
    await page.fill(field('verify-code'), await freshCode());
    await page.click(id('verify-submit'));
    await page.waitForURL(/#\/dashboard/);
    await switchLanguage(page, '简体中文', /[\u4e00-\u9fff]/);
  });

  it('a code by e-mail: choose the receiving object, send with a countdown, enter the code from the mail', async () => {
    smtp = await startSmtpSink({ user: 'alerts@example.com', password: 'smtp-Pa55' });
    const token = (await page.evaluate(() => localStorage.getItem('rampart.token') ?? sessionStorage.getItem('rampart.token')))!;
    const alerts: AlertSettingsInput = structuredClone(defaultAlertSettings);
    alerts.methods = ['email'];
    alerts.email = { host: '127.0.0.1', port: smtp.port, security: 'none', user: 'alerts@example.com', password: 'smtp-Pa55', from: 'rampart@example.com', recipients: ['ops@example.com'] };
    const saved = await api(product, token, 'POST', '/system/alerts', alerts);
    expect(saved.code, saved.msg).toBe(0);

    await signOut();
    await logIn(page, product.base, account.username, account.password);
    await page.waitForSelector(id('verify-step'));
    // E-mail comes first, the authenticator after it.
    expect(await page.textContent(id('verify-channel'))).toBe('邮件身份验证器');
    await page.click(id('verify-send'));
    await expect.poll(() => page.textContent(id('verify-step'))).toContain('请选择接收对象');
    await page.click(id('verify-object'));
    await page.click(id('verify-object-email:0'));
    const arrived = smtp.next(20_000);
    await page.click(id('verify-send'));
    await expect.poll(() => page.textContent(id('verify-send'))).toMatch(/^\d+ 秒后重新发送$/);
    expect(await page.isDisabled(id('verify-send'))).toBe(true);
    expect(await page.textContent(id('verify-step'))).toContain('验证码已发送至 o***@example.com');
    const mail = await arrived;
    expect(mail.subject).toBe('Rampart 登录验证码');
    await page.fill(field('verify-code'), /\b(\d{6})\b/.exec(mail.text)![1]!);
    await page.click(id('verify-submit'));
    await page.waitForURL(/#\/dashboard/);
  });

  it('the CLI turns the check off again: the password alone signs in', async () => {
    expect(product.cli('login-check', 'off').stdout).toContain('login check mode: off');
    await signOut();
    await logIn(page, product.base, account.username, account.password);
    await page.waitForURL(/#\/dashboard/);
  });
});
