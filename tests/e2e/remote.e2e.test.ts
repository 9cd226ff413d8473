/*
 * The remote-protection page (/remote) in a real browser, in Chinese and in English: sshd's port as
 * read, the computer-name rule disabled with its reason, a time window refused when its end is not
 * after its start, the access rule saved and read back; no console errors; a screenshot per language.
 *
 * The remote module stays OFF here: the product runs as root on this machine and must not restrict
 * the host's own SSH. What the kernel accepts and refuses is apps/agent/tests/remote-kernel.test.ts.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, collectPageErrors, field, id, signIn, switchLanguage } from './browser-session.ts';
import { startProduct, type RunningProduct } from './product.ts';

let product: RunningProduct;
let browser: Browser;
let page: Page;
let token = '';
const errors: string[] = [];
const shots = process.env.RAMPART_SHOTS_DIR ?? join(tmpdir(), 'rampart-remote-shots');

beforeAll(async () => {
  product = await startProduct();
  ({ browser, page, token } = await signIn(product));
  collectPageErrors(page, errors);
  const info = (await api(product, token, 'GET', '/info')).data as { module_list: Record<string, number> };
  if (info.module_list.remote !== 0) throw new Error('the remote module must be off for this test');
  mkdirSync(shots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

type Access = { ips: string[]; windows: Array<{ days: number[]; start: string; end: string }>; notify_login: boolean };

async function flow(lang: 'zh' | 'en', texts: { windowOrder: string; rdp: string }) {
  await page.goto(`${product.base}/#/remote/index`);
  await page.waitForSelector(id('remote-page'));
  await page.waitForSelector(id('remote-access'));
  expect(await page.textContent(id('remote-computer-name-why'))).toContain(texts.rdp);
  expect(await page.locator(field('remote-computer-name')).isDisabled()).toBe(true);
  expect((await page.textContent(id('remote-port')))?.length).toBeGreaterThan(0);

  const ip = lang === 'zh' ? '10.9.0.0/16' : '192.0.2.7';
  await page.fill(`textarea${id('remote-ips')}`, ip);
  if ((await page.locator(id('remote-window-0')).count()) === 0) await page.click(id('remote-window-add'));
  await page.fill(field('remote-window-0-start'), '18:00');
  await page.fill(field('remote-window-0-end'), '09:00');
  await page.click(id('remote-access-save'));
  await expect.poll(() => page.textContent(id('remote-window-0-error'))).toBe(texts.windowOrder);

  await page.fill(field('remote-window-0-start'), '08:30');
  await page.fill(field('remote-window-0-end'), '19:00');
  await page.click(id('remote-access-save'));
  await expect
    .poll(async () => ((await api(product, token, 'GET', '/remote/settings')).data as { access: Access }).access, { timeout: 10_000 })
    .toMatchObject({ ips: [ip], windows: [{ start: '08:30', end: '19:00' }] });
  await page.waitForSelector('.ant-modal-confirm-success', { state: 'detached', timeout: 10_000 });
  await page.screenshot({ path: join(shots, `remote-${lang}.png`), fullPage: true });
}

describe('the remote-protection page in a real browser (module off)', () => {
  it('works in Chinese', async () => {
    await flow('zh', { windowOrder: '结束时间必须晚于开始时间', rdp: 'Windows 远程桌面' });
    expect(errors).toEqual([]);
  });

  it('works in English', async () => {
    await switchLanguage(page, 'English', /[A-Za-z]/);
    await flow('en', { windowOrder: 'The end time must be later than the start time', rdp: 'Windows Remote Desktop' });
    expect(errors).toEqual([]);
  });
});
