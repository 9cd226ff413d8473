import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startSmtpSink, type SmtpSink } from '../../packages/notify/tests/peers.ts';
import { api, field, id, inEnglish, signIn } from './browser-session.ts';
import { startProduct, type RunningProduct } from './product.ts';

/**
 * The alerts tab in Chromium against the running product: e-mail is set up against a real SMTP
 * server on loopback (smtp-server, mails parsed by postal-mime), a test mail is sent from the page
 * and read here, in Chinese and in English.
 */
let product: RunningProduct;
let browser: Browser;
let page: Page;
let token = '';
let smtp: SmtpSink;

const box = (testId: string) => `textarea${id(testId)}, ${id(testId)} textarea`;
const resultDialog = '.ant-modal-confirm-content';
const password = 'smtp-e2e-Secret9';

beforeAll(async () => {
  smtp = await startSmtpSink({ user: 'alerts@example.com', password });
  product = await startProduct();
  ({ browser, page, token } = await signIn(product));
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
  await smtp?.close();
});

async function openAlerts() {
  await page.goto(`${product.base}/#/system/alerts`);
  await page.waitForSelector(id('alerts-form'));
}

/** Closes the result dialog so the next one can be read. */
async function dialogSays(text: string) {
  await expect.poll(() => page.textContent(resultDialog), { timeout: 20_000 }).toContain(text);
  await page.keyboard.press('Escape');
  await page.waitForSelector(resultDialog, { state: 'detached', timeout: 10_000 }).catch(() => {});
}

describe('the alerts tab in a real browser', () => {
  it('refuses bad input on its field, in Chinese', async () => {
    await openAlerts();
    expect(await page.textContent(id('alerts-service'))).toContain('通知服务');
    await page.fill(field('alerts-interval'), '61');
    await page.fill(box('alerts-recipients'), 'not-an-address');
    await page.click(id('alerts-save'));
    await expect.poll(() => page.textContent(id('alerts-error-interval'))).toBe('发送间隔须为 0-60 的整数（分钟），0 表示不限制');
    expect(await page.textContent(id('alerts-error-email.recipients'))).toBe('邮箱格式有误，每行一个');
    const saved = (await api(product, token, 'GET', '/system/alerts')).data as { interval: number };
    expect(saved.interval).toBe(3);
  });

  it('sets up e-mail against a real SMTP server and sends a test mail that arrives (Chinese)', async () => {
    await openAlerts();
    await page.click(id('alerts-enabled'));
    await page.click(id('alerts-method-email'));
    await page.fill(field('alerts-interval'), '0');
    await page.fill(field('alerts-smtp-host'), '127.0.0.1');
    await page.fill(field('alerts-smtp-port'), String(smtp.port));
    await page.click(id('alerts-security-none'));
    await page.fill(field('alerts-smtp-user'), 'alerts@example.com');
    await page.fill(field('alerts-smtp-password'), password);
    await page.fill(field('alerts-smtp-from'), 'rampart@example.com');
    await page.fill(box('alerts-recipients'), 'ops@example.com\nsec@example.com');
    await page.click(id('alerts-save'));
    await dialogSays('保存成功');

    // The password went in, never comes back.
    const view = await api(product, token, 'GET', '/system/alerts');
    expect(JSON.stringify(view)).not.toContain(password);
    expect(await page.inputValue(field('alerts-smtp-password'))).toBe('');
    expect(await page.getAttribute(field('alerts-smtp-password'), 'placeholder')).toBe('已保存；留空则保持不变');

    const arrived = smtp.next(20_000);
    await page.click(id('alerts-test-email'));
    await dialogSays('测试消息已发送');
    const mail = await arrived;
    expect(mail.auth).toEqual({ username: 'alerts@example.com', password });
    expect(mail.to).toEqual(['ops@example.com', 'sec@example.com']);
    expect(mail.subject).toContain('测试消息');
    expect(mail.text).toContain('通知方式 邮件 配置正确');
  });

  it('"Notification method not set" for a method that is not configured', async () => {
    await openAlerts();
    await page.click(id('alerts-test-wechat'));
    await dialogSays('未设置通知方式');
  });

  it('the same in English: labels, a field message, a test mail in English and the empty queue', async () => {
    await openAlerts();
    await inEnglish(page, async () => {
      await page.waitForSelector(id('alerts-form'));
      expect(await page.textContent(id('alerts-service'))).toContain('Notification service');
      expect(await page.textContent(id('alerts-queue'))).toContain('No message is waiting.');
      await page.fill(field('alerts-smtp-from'), 'nobody');
      await page.click(id('alerts-save'));
      await expect.poll(() => page.textContent(id('alerts-error-email.from'))).toBe('Enter a valid sender address');
      await page.fill(field('alerts-smtp-from'), 'rampart@example.com');
      await page.click(id('alerts-save'));
      await dialogSays('Saved');

      const arrived = smtp.next(20_000);
      await page.click(id('alerts-test-email'));
      await dialogSays('Test message sent');
      const mail = await arrived;
      expect(mail.subject).toContain('Test message');
      expect(mail.text).toContain('the E-mail notification method works');
      // Saved with the password blank: the stored one was kept.
      expect(mail.auth).toEqual({ username: 'alerts@example.com', password });

      await page.click(id('alerts-test-sms'));
      await dialogSays('Notification method not set');
    });
  });

  it('a notice the product raises goes out by e-mail by itself (interval 0), in the first administrator\'s language', async () => {
    const arrived = smtp.next(30_000);
    expect((await api(product, token, 'POST', '/module_switch', { module: 'firewall', status: 0 })).code).toBe(0);
    const mail = await arrived;
    expect(mail.subject).toContain('防护模块已关闭');
    expect(mail.text).toContain('关闭了防火墙');
    expect(mail.to).toEqual(['ops@example.com', 'sec@example.com']);
  });
});
