/*
 * System settings, config tab (configuration backup) in a real browser, in Chinese and in English.
 *
 * The firewall module stays OFF here (the product runs as root): the configurations restored below
 * carry it off too, so a restore writes the firewall's desired state and never this machine's kernel.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, id, inEnglish, signIn } from './browser-session.ts';
import { startProduct, type RunningProduct } from './product.ts';

let product: RunningProduct;
let browser: Browser;
let page: Page;
let token = '';

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

/** Sets the server alias the way the basic tab saves it. */
async function setAlias(alias: string) {
  const basic = (await api(product, token, 'GET', '/system/basic')).data as { temp_minutes: number };
  expect((await api(product, token, 'POST', '/system/basic', { server_alias: alias, temp_minutes: basic.temp_minutes })).code).toBe(0);
}
const alias = async () => ((await api(product, token, 'GET', '/system/basic')).data as { server_alias: string }).server_alias;

async function openTab() {
  await page.goto(`${product.base}/#/system/config`);
  await page.waitForSelector(id('cfg-page'));
}

const backupRows = () => page.locator(`${id('cfg-backups')} tr[data-row-key]`);

describe('configuration backup in a real browser', () => {
  it('makes a server backup, the alias changes, restoring the backup brings it back (Chinese)', async () => {
    await setAlias('alias-one');
    await openTab();
    expect(await page.textContent(id('cfg-page'))).toContain('服务器备份');
    await page.click(id('cfg-backup-now'));
    await expect.poll(() => backupRows().count(), { timeout: 10_000 }).toBe(1);
    expect(await backupRows().first().textContent()).toContain('手动备份');
    const file = (await backupRows().first().getAttribute('data-row-key'))!;
    expect(file).toMatch(/-manual\.json$/);

    await setAlias('alias-two');
    await page.click(id(`cfg-restore-${file}`));
    await expect.poll(() => page.textContent('.ant-modal-confirm')).toContain('替换当前配置');
    await page.click(id('cfg-restore-confirm'));
    await expect.poll(alias, { timeout: 15_000 }).toBe('alias-one');
    // The configuration before the restore was kept as an automatic backup.
    await expect.poll(() => backupRows().count(), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => page.textContent(id('cfg-backups'))).toContain('恢复前自动备份');
  });

  it('exports a file, refuses a damaged one saying why without changing anything, and restores the export (English)', async () => {
    await openTab();
    await inEnglish(page, async () => {
      await page.waitForSelector(id('cfg-page'));
      expect(await page.textContent(id('cfg-page'))).toContain('Server backups');
      const download = page.waitForEvent('download', { timeout: 20_000 });
      await page.click(id('cfg-export'));
      const saved = await download;
      const text = readFileSync((await saved.path())!, 'utf8');
      expect(JSON.parse(text)).toMatchObject({ format: 'rampart-config', format_version: 1, content: { console: { settings: { server_alias: 'alias-one' } } } });

      await setAlias('alias-three');
      // A file edited by hand fails its checksum: refused with the reason, nothing changed.
      await page.click(id('cfg-import'));
      await page.waitForSelector(id('cfg-import-form'));
      const input = page.locator(`${id('cfg-import-form')} input[type=file]`);
      await input.setInputFiles({ name: 'edited.json', mimeType: 'application/json', buffer: Buffer.from(text.replace('"alias-one"', '"alias-evil"')) });
      await page.click(id('cfg-import-apply'));
      await expect.poll(() => page.textContent('.ant-modal-confirm')).toContain('replaces the current configuration');
      await page.click(id('cfg-import-confirm'));
      await expect.poll(() => page.textContent(id('cfg-import-error')), { timeout: 10_000 }).toContain('fails its checksum');
      expect(await page.textContent(id('cfg-import-error'))).toContain('Nothing was changed');
      expect(await alias()).toBe('alias-three');

      // The exported file as it is: restored.
      await input.setInputFiles({ name: 'rampart-config.json', mimeType: 'application/json', buffer: Buffer.from(text) });
      await page.click(id('cfg-import-apply'));
      await page.click(id('cfg-import-confirm'));
      await expect.poll(alias, { timeout: 15_000 }).toBe('alias-one');
      await expect.poll(() => page.isVisible(id('cfg-import-form'))).toBe(false);
      await expect.poll(() => page.textContent(id('cfg-backups'))).toContain('Before a restore');
    });
  });
});
