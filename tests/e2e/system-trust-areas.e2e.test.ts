/*
 * System settings, the super whitelist (trust_terminal) and common areas tabs, in a real browser,
 * in Chinese and in English; and a common area used by a firewall rule.
 *
 * The firewall module stays OFF here, as in firewall.e2e.test.ts: the product runs as root and the
 * module on would change this machine's kernel ruleset. Both lists live in the agent's desired state;
 * the kernel side (a deny on a common area, a renewed trusted address) is tested in network namespaces
 * (apps/agent/tests/firewall-common-areas.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, field, id, inEnglish, signIn } from './browser-session.ts';
import { startProduct, type RunningProduct } from './product.ts';

let product: RunningProduct;
let browser: Browser;
let page: Page;
let token = '';

const box = (testId: string) => `textarea${id(testId)}, ${id(testId)} textarea`;
/** The success, warning or error dialog the API client shows after a call. */
const resultDialog = '.ant-modal-confirm-content';
const rows = (prefix: string) => page.locator(`[data-testid^="${prefix}-row-"]`);
const day = 86_400_000;

const kernelTableExists = () => spawnSync('nft', ['list', 'table', 'inet', 'rampart'], { stdio: 'ignore' }).status === 0;

interface Paged<T> {
  total: number;
  list: T[];
}
interface Trusted {
  id: number;
  address: string;
  added_by: string;
  remark: string;
  source: string;
  created_at: number;
  expires_at: number | null;
}
interface Area {
  id: number;
  name: string;
  members: string[];
  rules: number;
}

const trusted = async () => ((await api(product, token, 'GET', '/system/trust/ip')).data as Paged<Trusted>).list;
const areas = async () => ((await api(product, token, 'GET', '/system/areas')).data as Paged<Area>).list;

/** Opens a select by its test id and clicks one of its options. */
async function choose(selectId: string, optionId: string) {
  await page.click(id(selectId));
  // The option is clicked by event, not by pointer: on a loaded machine the dropdown of a select
  // in a modal closed a moment earlier may still lie over this one while it fades.
  await page.waitForSelector(id(optionId));
  await page.dispatchEvent(id(optionId), 'click');
}
/** Types into a searchable select and clicks the option that comes up. */
async function pick(selectId: string, text: string, optionId: string) {
  await page.click(id(selectId));
  await page.keyboard.type(text);
  await page.click(id(optionId));
  await page.keyboard.press('Escape');
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

describe('system settings: super whitelist and common areas in a real browser (firewall module off)', () => {
  it('trust_terminal: checks the form, adds IPv4/IPv6 with a validity and my IP, renews, deletes a selection, sets the automatic add', async () => {
    await page.goto(`${product.base}/#/system/trust_terminal`);
    await page.waitForSelector(id('trust-page'));
    await page.click(id('trust-add'));
    await page.waitForSelector(id('trust-add-form'));

    // Nothing typed: both required fields say so.
    await page.click(id('trust-add-save'));
    await expect.poll(() => page.textContent(id('trust-error-ips'))).toBe('请输入 IP');
    expect(await page.textContent(id('trust-error-days'))).toBe('请选择有效期');
    // `*` would trust everyone: refused on its line.
    await page.fill(box('trust-ips'), '203.0.113.7\n*');
    await page.click(id('trust-add-save'));
    await expect.poll(() => page.textContent(id('trust-error-ips'))).toMatch(/^第 2 行（\*）：超级白名单不能包含所有地址/);

    await page.fill(box('trust-ips'), '203.0.113.7\n2001:db8::7');
    // This browser's own address, offered as a quick fill.
    expect(await page.textContent(id('trust-fill-mine'))).toContain('127.0.0.1');
    await page.click(id('trust-fill-mine'));
    expect(await page.inputValue(box('trust-ips'))).toBe('203.0.113.7\n2001:db8::7\n127.0.0.1');
    await choose('trust-add-validity', 'trust-add-validity-7');
    await page.fill(field('trust-remark'), 'e2e 办公室');
    await page.click(id('trust-add-save'));
    await page.waitForSelector(id('trust-add-form'), { state: 'detached' });
    await expect.poll(() => page.textContent(resultDialog)).toContain('已添加 3 个 IP');

    await expect.poll(() => rows('trust').count(), { timeout: 10_000 }).toBe(3);
    const stored = await trusted();
    const office = stored.find((e) => e.address === '203.0.113.7')!;
    expect(office).toMatchObject({ remark: 'e2e 办公室', source: 'manual' });
    expect(office.added_by).not.toBe('');
    // The console sets the end from its clock, the agent the add time from its own: a few ms apart.
    expect(Math.abs(office.expires_at! - office.created_at - 7 * day)).toBeLessThan(5_000);
    const row = id(`trust-row-${office.id}`);
    for (const part of ['203.0.113.7', office.added_by, '手动添加', 'e2e 办公室']) expect(await page.textContent(row)).toContain(part);

    await inEnglish(page, async () => {
      await page.waitForSelector(row);
      await expect.poll(() => page.textContent(row)).toContain('Manual');
      const head = await page.textContent(`${id('trust-table')} thead`);
      for (const title of ['IP', 'Added by', 'Add time', 'Valid until', 'Source', 'Remark', 'Actions']) expect(head).toContain(title);
      expect(await page.textContent(id('trust-add'))).toContain('Add IP');
      await page.click(id('trust-add'));
      await page.click(id('trust-add-save'));
      await expect.poll(() => page.textContent(id('trust-error-days'))).toBe('Choose the validity');
      await page.click(id('trust-add-cancel'));
    });
    await page.waitForSelector(row);

    // Renewal: 30 more days from the current end.
    await page.click(id(`trust-renew-${office.id}`));
    await page.waitForSelector(id('trust-renew-form'));
    await choose('trust-renew-validity', 'trust-renew-validity-30');
    await page.click(id('trust-renew-save'));
    await expect.poll(async () => (await trusted()).find((e) => e.id === office.id)?.expires_at, { timeout: 10_000 }).toBe(office.expires_at! + 30 * day);

    // Search, then a bulk delete of two entries (asked first).
    await page.fill(field('trust-keyword'), '2001:db8');
    await page.click(id('trust-search'));
    await expect.poll(() => rows('trust').count(), { timeout: 10_000 }).toBe(1);
    await page.fill(field('trust-keyword'), '');
    await expect.poll(() => rows('trust').count(), { timeout: 10_000 }).toBe(3);
    const v6 = stored.find((e) => e.address === '2001:db8::7')!;
    await page.click(`${id(`trust-row-${office.id}`)} .ant-checkbox-input`);
    await page.click(`${id(`trust-row-${v6.id}`)} .ant-checkbox-input`);
    await page.click(id('trust-delete-selected'));
    await page.click(id('trust-delete-confirm'));
    await expect.poll(async () => (await trusted()).map((e) => e.address), { timeout: 10_000 }).toEqual(['127.0.0.1']);
    await expect.poll(() => rows('trust').count()).toBe(1);

    // The automatic add at panel sign-in: on, for one day.
    await page.click(id('trust-auto-enabled'));
    await choose('trust-auto-validity', 'trust-auto-validity-1');
    await page.click(id('trust-auto-save'));
    await expect.poll(async () => (await api(product, token, 'GET', '/system/trust/auto')).data, { timeout: 10_000 }).toEqual({ enabled: true, days: 1 });
    // The browser signs in from loopback, which needs no trust: nothing more is added.
    expect((await trusted()).length).toBe(1);
  });

  it('areas: checks the form, adds an area by searching names, uses it in a firewall rule, refuses its deletion while used', async () => {
    await page.goto(`${product.base}/#/system/areas`);
    await page.waitForSelector(id('areas-page'));
    await page.waitForSelector(id('fw-kernel-off'));
    await page.click(id('area-add'));
    await page.waitForSelector(id('area-form'));
    await page.click(id('area-save'));
    await expect.poll(() => page.textContent(id('area-error-name'))).toBe('请输入区域名称');
    expect(await page.textContent(id('area-error-members'))).toBe('请至少选择一个国家或省份');

    await page.fill(field('area-name'), 'e2e 东亚');
    await pick('area-members', '日本', 'area-member-JP');
    await pick('area-members', '广东', 'area-member-CN-GD');
    await page.fill(field('area-remark'), '合作方');
    await page.click(id('area-save'));
    await page.waitForSelector(id('area-form'), { state: 'detached' });
    await expect.poll(async () => (await areas()).length, { timeout: 10_000 }).toBe(1);
    const area = (await areas())[0]!;
    expect(area).toMatchObject({ name: 'e2e 东亚', members: ['JP', 'CN-GD'], rules: 0 });
    const row = id(`area-row-${area.id}`);
    await page.waitForSelector(row);
    for (const part of ['e2e 东亚', '日本', '广东省', '合作方']) expect(await page.textContent(row)).toContain(part);

    // The same name again (any case) is refused.
    await page.click(id('area-add'));
    await page.fill(field('area-name'), 'E2E 东亚');
    await pick('area-members', 'US', 'area-member-US');
    await page.click(id('area-save'));
    await expect.poll(() => page.textContent(resultDialog)).toContain('已有同名的常用区域');
    await page.keyboard.press('Escape');
    await page.click(id('area-cancel'));
    await page.waitForSelector(id('area-form'), { state: 'detached' });

    await inEnglish(page, async () => {
      await page.waitForSelector(row);
      await expect.poll(() => page.textContent(row)).toContain('Japan');
      expect(await page.textContent(row)).toContain('Guangdong');
      const head = await page.textContent(`${id('area-table')} thead`);
      for (const title of ['Name', 'Countries and provinces', 'Used by rules', 'Remark']) expect(head).toContain(title);
      await page.click(id('area-add'));
      await page.click(id('area-save'));
      await expect.poll(() => page.textContent(id('area-error-name'))).toBe('Enter the area name');
      await page.click(id('area-cancel'));
    });

    // A firewall rule picks the common area by its name.
    await page.goto(`${product.base}/#/firewall/rule_in`);
    await page.waitForSelector(id('fw-rules-in-page'));
    await page.click(id('fw-rule-add'));
    await page.waitForSelector(id('fw-rule-form'));
    await page.fill(field('fw-rule-ports'), '9090');
    await pick('fw-rule-areas', '东亚', `fw-rule-area-common-${area.id}`);
    await page.click(id('fw-rule-action-deny'));
    await page.fill(field('fw-rule-priority'), '20');
    await page.click(id('fw-rule-save'));
    await page.waitForSelector(id('fw-rule-form'), { state: 'detached' });
    const rules = async () => ((await api(product, token, 'GET', '/firewall/rules?direction=in')).data as Paged<{ id: number; areas: string[] }>).list;
    await expect.poll(async () => (await rules()).map((r) => r.areas), { timeout: 10_000 }).toEqual([[`common:${area.id}`]]);
    const ruleId = (await rules())[0]!.id;
    await expect.poll(() => page.textContent(id(`fw-rule-area-tag-${ruleId}-common-${area.id}`))).toBe('e2e 东亚');

    // Back on the areas tab: it is used by one rule, so deleting it is refused with the count.
    await page.goto(`${product.base}/#/system/areas`);
    await page.waitForSelector(row);
    await expect.poll(() => page.textContent(id(`area-rules-${area.id}`))).toBe('1');
    await page.click(id(`area-delete-${area.id}`));
    await page.click(id('area-delete-confirm'));
    await expect.poll(() => page.textContent(resultDialog)).toContain('该常用区域正被 1 条规则（防火墙或进程防护）使用');
    await page.keyboard.press('Escape');
    expect((await areas()).length).toBe(1);

    // A rename shows on the rule; once the rule is gone the area can go too.
    await page.click(id(`area-edit-${area.id}`));
    await page.waitForSelector(id('area-in-use'));
    await page.fill(field('area-name'), 'e2e 远东');
    await page.click(id('area-save'));
    await page.waitForSelector(id('area-form'), { state: 'detached' });
    await page.goto(`${product.base}/#/firewall/rule_in`);
    await expect.poll(() => page.textContent(id(`fw-rule-area-tag-${ruleId}-common-${area.id}`)), { timeout: 10_000 }).toBe('e2e 远东');
    expect((await api(product, token, 'POST', '/firewall/rules/delete', { ids: [ruleId] })).code).toBe(0);
    await page.goto(`${product.base}/#/system/areas`);
    await page.waitForSelector(row);
    await page.click(id(`area-delete-${area.id}`));
    await page.click(id('area-delete-confirm'));
    await expect.poll(async () => (await areas()).length, { timeout: 10_000 }).toBe(0);
    await expect.poll(() => rows('area').count()).toBe(0);

    // Nothing here reached the kernel.
    expect(kernelTableExists()).toBe(false);
  });
});
