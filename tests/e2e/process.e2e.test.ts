/*
 * The process-protection page (/process) in a real browser, in Chinese and in English: the
 * three-step form adds a rule (deny start, deny UDP with an allowed network),
 * the list shows it with its restrictions in the page's language, and deleting it asks first.
 *
 * The process module stays OFF and the rule names a path that does not exist: the product runs as
 * root here and must restrict nothing on this host. What the kernel denies is
 * apps/agent/tests/process-guard.test.ts (fanotify), apps/guard/tests/net-cgroup.test.ts and
 * net-vm.test.ts (cgroup programs, BPF LSM in the VM); the area expansion is
 * apps/agent/tests/process.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, collectPageErrors, field, id, signIn, switchLanguage } from './browser-session.ts';
import { startProduct, type RunningProduct } from './product.ts';

let product: RunningProduct;
let browser: Browser;
let page: Page;
let token = '';
const errors: string[] = [];

beforeAll(async () => {
  product = await startProduct();
  ({ browser, page, token } = await signIn(product));
  collectPageErrors(page, errors);
  const info = (await api(product, token, 'GET', '/info')).data as { module_list: Record<string, number> };
  if (info.module_list.process !== 0) throw new Error('the process module must be off for this test');
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

type Rule = { id: number; process: string; deny_start: boolean; deny_udp: boolean; allow_ips: string[]; state: string };
const rules = async () => ((await api(product, token, 'GET', '/process/rules?page=1&size=50')).data as { list: Rule[] }).list;

async function flow(lang: 'zh' | 'en', texts: { denyStart: string; denyUdp: string; deleteTitle: RegExp }) {
  const tool = `/opt/rampart-e2e-absent-${lang}/bin/mytool`;
  await page.goto(`${product.base}/#/process/index`);
  await page.waitForSelector(id('process-rules-page'));

  await page.click(id('process-rule-add'));
  await page.waitForSelector(id('process-rule-form-step-1'));
  await page.fill(field('process-rule-process'), tool);
  // Deny start is on by default for a new rule.
  expect(await page.getAttribute(id('process-rule-deny-start'), 'aria-checked')).toBe('true');
  await page.click(id('process-rule-next'));
  await page.waitForSelector(id('process-rule-form-step-2'));
  await page.click(id('process-rule-deny-udp'));
  // A tags field: the separator turns what was typed into a tag.
  await page.click(id('process-rule-allow-ips'));
  await page.keyboard.type('10.20.0.0/16,');
  await expect.poll(() => page.locator(`${id('process-rule-allow-ips')} .ant-select-selection-item`).count()).toBe(1);
  await page.click(id('process-rule-next'));
  await page.waitForSelector(id('process-rule-form-step-3'));
  await page.click(id('process-rule-save'));
  await page.waitForSelector(id('process-rule-form-step-3'), { state: 'detached', timeout: 10_000 });

  await expect.poll(async () => (await rules()).find((r) => r.process === tool), { timeout: 10_000 }).toBeDefined();
  const rule = (await rules()).find((r) => r.process === tool)!;
  expect(rule).toMatchObject({ deny_start: true, deny_udp: true, allow_ips: ['10.20.0.0/16'], state: 'off' });
  const row = id(`process-rule-row-${rule.id}`);
  await expect.poll(() => page.locator(row).textContent(), { timeout: 10_000 }).toContain(tool);
  const text = (await page.locator(row).textContent()) ?? '';
  expect(text).toContain(texts.denyStart);
  expect(text).toContain(texts.denyUdp);

  await page.click(id(`process-rule-delete-${rule.id}`));
  await expect.poll(() => page.locator('.ant-modal-confirm-title').textContent()).toMatch(texts.deleteTitle);
  await page.click(id('process-rule-delete-confirm'));
  await expect.poll(async () => (await rules()).some((r) => r.id === rule.id), { timeout: 10_000 }).toBe(false);
  await page.waitForSelector(row, { state: 'detached', timeout: 10_000 });
}

describe('the process-protection page in a real browser (module off)', () => {
  it('works in Chinese', async () => {
    await flow('zh', { denyStart: '禁止启动', denyUdp: '禁止 UDP', deleteTitle: /./ });
    expect(errors).toEqual([]);
  });

  it('works in English', async () => {
    await switchLanguage(page, 'English', /[A-Za-z]/);
    await flow('en', { denyStart: 'Deny start', denyUdp: 'Deny UDP', deleteTitle: /[A-Za-z]/ });
    expect(errors).toEqual([]);
  });
});
