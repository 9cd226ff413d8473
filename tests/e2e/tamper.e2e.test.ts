/*
 * The tamper tabs (index: protected directories, name: naming rules) in a real browser, in Chinese
 * and in English: the two-step add form with the broad-path double confirmation, a WordPress
 * template for a temp site root, a naming rule; no console errors; a screenshot of each page.
 *
 * The tamper module stays OFF here: the product runs as root on this machine and must not guard its
 * files. The rules are kept by the agent and shown with the state "off"; what the guard denies is
 * tested by the agent's and the guard's own tests.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, clickUntilGone, collectPageErrors, field, id, signIn, switchLanguage } from './browser-session.ts';
import { startProduct, type RunningProduct } from './product.ts';

let product: RunningProduct;
let browser: Browser;
let page: Page;
let token = '';
let site = '';
const errors: string[] = [];
/** Where the screenshots go (looked at by a person; not compared). */
const shots = process.env.RAMPART_SHOTS_DIR ?? join(tmpdir(), 'rampart-tamper-shots');

/**
 * A screenshot of the viewport (1440x900) once the self-closing result dialogs are gone (on the
 * fanotify fallback a save also warns, for 3 s, which operations the kernel cannot deny).
 */
async function shot(name: string) {
  await page.waitForSelector('.ant-modal-confirm-success', { state: 'detached', timeout: 10_000 });
  await page.waitForSelector('.ant-modal-confirm-warning', { state: 'detached', timeout: 10_000 });
  await page.screenshot({ path: join(shots, `${name}.png`) });
}

const rows = (prefix: string) => page.locator(`[data-testid^="${prefix}-row-"]`);

interface Paged<T> {
  total: number;
  list: T[];
}
type Row = { id: number; path: string; sub_path: string; level: number; ops: string[]; state: string; remark: string };

beforeAll(async () => {
  product = await startProduct();
  ({ browser, page, token } = await signIn(product));
  collectPageErrors(page, errors);
  const info = (await api(product, token, 'GET', '/info')).data as { module_list: Record<string, number> };
  if (info.module_list.tamper !== 0) throw new Error('the tamper module must be off for this test');
  site = mkdtempSync(join(tmpdir(), 'rampart-e2e-site-'));
  mkdirSync(shots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
  if (site) rmSync(site, { recursive: true, force: true });
});

async function openTab(tab: 'index' | 'name') {
  await page.goto(`${product.base}/#/tamper/${tab}`);
  await page.waitForSelector(id(tab === 'index' ? 'tamper-rules-page' : 'tamper-naming-page'));
  await page.waitForSelector(id('tamper-guard-banner'));
  await page.waitForSelector(id('tamper-module-off'));
}

async function rulesNow(): Promise<Row[]> {
  return ((await api(product, token, 'GET', '/tamper/rules?size=100')).data as Paged<Row>).list;
}

/** The whole flow in the page's current language; `texts` are what that language shows. */
async function flow(lang: 'zh' | 'en', texts: { levelRequired: string; broad2: string; modify: string; off: string; noRestriction: string }) {
  const root = join(site, lang);
  await openTab('index');
  const before = (await rulesNow()).length;

  // Step 1 checks its fields before step 2 opens.
  await page.click(id('tamper-rule-add'));
  await page.waitForSelector(id('tamper-rule-form-step-1'));
  await page.fill(field('tamper-rule-path'), '/');
  await page.click(id('tamper-rule-next'));
  await expect.poll(() => page.textContent(id('tamper-rule-error-level'))).toBe(texts.levelRequired);
  await page.fill(field('tamper-rule-level'), '5');
  await page.click(id('tamper-rule-next'));
  await page.waitForSelector(id('tamper-rule-form-step-2'));
  await page.click(id('tamper-rule-op-x'));
  await page.click(id('tamper-rule-advanced'));
  await page.fill(`${id('tamper-rule-exempt')} input`, '/usr/bin/rsync');
  await page.keyboard.press('Enter');
  await page.fill(field('tamper-rule-remark'), `e2e ${lang}`);
  await shot(`tamper-rule-step2-${lang}`);

  // The root: two distinct confirmations; cancelling the second saves nothing.
  await page.click(id('tamper-rule-save'));
  await page.click(id('tamper-broad-ok-1'));
  await expect.poll(() => page.textContent('.ant-modal-confirm-title >> nth=-1')).toBe(texts.broad2);
  await clickUntilGone(page, id('tamper-broad-cancel-2'), id('tamper-broad-cancel-2'));
  expect((await rulesNow()).length).toBe(before);

  // Back to step 1, a real path, and save.
  await page.click(id('tamper-rule-previous'));
  await page.fill(field('tamper-rule-path'), `${root}/code`);
  await page.click(id('tamper-rule-next'));
  await page.click(id('tamper-rule-save'));
  await page.waitForSelector(id('tamper-rule-form-step-2'), { state: 'detached' });
  await expect.poll(async () => (await rulesNow()).length, { timeout: 10_000 }).toBe(before + 1);
  const added = (await rulesNow()).find((r) => r.path === `${root}/code`)!;
  expect(added).toMatchObject({ level: 5, remark: `e2e ${lang}`, state: 'off' });
  expect([...added.ops].sort()).toEqual(['c', 'd', 'n', 'w', 'x']);
  const row = id(`tamper-rule-row-${added.id}`);
  await page.waitForSelector(row);
  const text = await page.textContent(row);
  for (const part of [`${root}/code`, texts.modify, texts.off, `e2e ${lang}`]) expect(text).toContain(part);

  // A WordPress template for the site root: previewed, then added all at once.
  await page.click(id('tamper-template-open'));
  await page.waitForSelector(id('tamper-template-form'));
  await page.click(id('tamper-template-cms'));
  await page.click(id('tamper-template-wordpress'));
  await page.fill(field('tamper-template-root'), `${root}/wp`);
  await expect.poll(() => page.locator(`${id('tamper-template-preview')} tbody tr`).count(), { timeout: 10_000 }).toBe(6);
  await shot(`tamper-template-${lang}`);
  await page.click(id('tamper-template-add'));
  await page.waitForSelector(id('tamper-template-form'), { state: 'detached' });
  await expect.poll(async () => (await rulesNow()).filter((r) => r.path.startsWith(`${root}/wp`)).length, { timeout: 10_000 }).toBe(6);
  await expect.poll(() => rows('tamper-rule').count(), { timeout: 10_000 }).toBe(before + 7);
  await shot(`tamper-index-${lang}`);

  // A naming rule.
  await openTab('name');
  await page.click(id('tamper-naming-add'));
  await page.waitForSelector(id('tamper-naming-form'));
  await page.fill(field('tamper-naming-dir'), `${root}/uploads`);
  await page.fill(`${id('tamper-naming-deny-files')} input`, '*.php');
  await page.keyboard.press('Enter');
  await page.fill(`${id('tamper-naming-deny-files')} input`, '*.jsp');
  await page.keyboard.press('Enter');
  await shot(`tamper-naming-form-${lang}`);
  await page.click(id('tamper-naming-save'));
  await page.waitForSelector(id('tamper-naming-form'), { state: 'detached' });
  const names = (await api(product, token, 'GET', '/tamper/names?size=100')).data as Paged<{ id: number; dir: string; deny_files: string[]; deny_dirs: string[]; deny_malformed: boolean }>;
  const naming = names.list.find((n) => n.dir === `${root}/uploads`)!;
  expect(naming).toMatchObject({ deny_files: ['*.php', '*.jsp'], deny_dirs: [], deny_malformed: true });
  const namingRow = id(`tamper-naming-row-${naming.id}`);
  await page.waitForSelector(namingRow);
  const namingText = await page.textContent(namingRow);
  for (const part of [`${root}/uploads`, '*.php', '*.jsp', texts.noRestriction]) expect(namingText).toContain(part);
  await shot(`tamper-name-${lang}`);
}

describe('the tamper tabs in a real browser (module off)', () => {
  it('works in Chinese', async () => {
    await flow('zh', { levelRequired: '请输入级别', broad2: '请再次确认', modify: '修改', off: '未生效', noRestriction: '不限制' });
    expect(errors).toEqual([]);
  });

  it('works in English', async () => {
    await switchLanguage(page, 'English', /[A-Za-z]/);
    await flow('en', { levelRequired: 'Enter the level', broad2: 'Confirm once more', modify: 'Modify', off: 'Off', noRestriction: 'No restriction' });
    expect(errors).toEqual([]);
  });
});
