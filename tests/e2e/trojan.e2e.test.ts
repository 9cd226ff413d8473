/*
 * Trojan (web-shell) protection in a real browser, in Chinese and in English: add a protected
 * directory holding a small PHP web shell written here, scan it, isolate the shell from the results,
 * view its source (shown as text: the markup in it never runs), and restore it over a file that took
 * its place after the overwrite question. The settings tab refuses a bad YARA rule with the
 * compiler's message and a whitelist line without * before sending. The audit's trojan tab scans a
 * typed path once and records the shell by hand. A full scan of twenty thousand files is stopped from
 * the page (issue 22), and a finding is trusted after its confirmation: a rescan no longer reports it.
 *
 * The module stays off (no real-time watch) and scans handle nothing by themselves ("record only"):
 * the page does the handling. The engine's own tests are apps/agent/tests/trojan*.test.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { defaultTrojanSettings } from '@rampart/contracts';
import { api, collectPageErrors, field, id, signIn, switchLanguage } from './browser-session.ts';
import { startProduct, type RunningProduct } from './product.ts';

let product: RunningProduct;
let browser: Browser;
let page: Page;
let token = '';
const errors: string[] = [];
const dirs: string[] = [];

/**
 * A web shell whose text also holds markup: shown as text, none of it may run or render. Each flow
 * gets its own bytes: restoring a file trusts its content from then on.
 */
const shellFor = (tag: string) => `<?php eval($_POST['${tag}']); ?>\n<script>window.__trojanRan = 1;</script><img src=x onerror="window.__trojanRan = 2">\n`;

beforeAll(async () => {
  product = await startProduct();
  ({ browser, page, token } = await signIn(product));
  collectPageErrors(page, errors);
  const info = (await api(product, token, 'GET', '/info')).data as { module_list: Record<string, number> };
  if (info.module_list.trojan !== 0) throw new Error('the trojan module must be off for this test');
  const saved = await api(product, token, 'POST', '/trojan/settings', { settings: { ...defaultTrojanSettings, realtime: false, handling: 'record' } });
  if (saved.code !== 0) throw new Error(`settings not saved: ${saved.msg}`);
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

type Row = { id: number; name: string; path: string };
const latestScan = async () => ((await api(product, token, 'GET', '/trojan/scans?page=1&size=1')).data as { list: { id: number; state: string; done: number; total: number }[] }).list[0];
const results = async (scan: number) => ((await api(product, token, 'GET', `/trojan/results?scan=${scan}`)).data as { list: Row[] }).list;
const isolated = async () => ((await api(product, token, 'GET', '/trojan/isolate')).data as { list: (Row & { originalPath: string })[] }).list;
const dirRows = async () => ((await api(product, token, 'GET', '/trojan/dirs')).data as { list: { id: number; path: string }[] }).list;

/** Protects a directory through the API (the page's form is exercised by `flow`); resolves to its id. */
async function addDir(path: string): Promise<number> {
  expect((await api(product, token, 'POST', '/trojan/dirs/add', { dirs: [{ path, remark: 'e2e', site: '' }] })).code).toBe(0);
  return (await dirRows()).find((d) => d.path === path)!.id;
}

/** The dirs tab, loaded afresh so it lists a directory added through the API. */
async function openDirs(dir: number) {
  await page.goto(`${product.base}/#/trojan/dirs`);
  await page.reload();
  await page.waitForSelector(id(`trojan-dir-row-${dir}`));
}

async function flow(texts: { reason: RegExp; isolated: string; complete: string }, tag: string) {
  const shell = shellFor(tag);
  const www = mkdtempSync(join(tmpdir(), 'rampart-e2e-www-'));
  dirs.push(www);
  const shellPath = join(www, 'shell.php');
  writeFileSync(shellPath, shell);
  writeFileSync(join(www, 'index.php'), "<?php echo 'hello';\n");

  await page.goto(`${product.base}/#/trojan/dirs`);
  await page.waitForSelector(id('trojan-dirs-page'));
  await page.waitForSelector(id('trojan-status'));

  // Add the directory: a typed path (the sites found here, if any, are only offered).
  await page.click(id('trojan-dir-add'));
  await page.fill(field('trojan-dir-path'), 'not/absolute');
  await page.click(id('trojan-dir-save'));
  await page.waitForSelector(id('trojan-dir-error'));
  await page.fill(field('trojan-dir-path'), www);
  await page.fill(field('trojan-dir-remark'), 'e2e');
  await page.click(id('trojan-dir-save'));
  await expect.poll(async () => (await dirRows()).find((d) => d.path === www), { timeout: 10_000 }).toBeDefined();
  const dir = (await dirRows()).find((d) => d.path === www)!;
  await page.waitForSelector(id(`trojan-dir-row-${dir.id}`));

  // Scan now: the progress shows the state until complete, then the web shell in the results.
  const before = (await latestScan())?.id ?? 0;
  await page.click(id('trojan-scan-start'));
  await expect.poll(async () => (await latestScan())?.id ?? 0, { timeout: 10_000 }).toBeGreaterThan(before);
  const scan = (await latestScan())!;
  await page.waitForSelector(`${id('trojan-scan')}[data-scan-id="${scan.id}"][data-state="complete"]`, { timeout: 30_000 });
  expect(await page.textContent(id('trojan-scan-state'))).toBe(texts.complete);
  const shellRow = (await results(scan.id)).find((r) => r.name === 'shell.php')!;
  expect(shellRow).toBeDefined();
  await page.waitForSelector(id(`trojan-result-row-${shellRow.id}`), { timeout: 10_000 });
  expect(await page.textContent(id(`trojan-result-reason-${shellRow.id}`))).toMatch(texts.reason);

  // Isolate it from the results.
  await page.click(id(`trojan-result-isolate-${shellRow.id}`));
  await expect.poll(() => page.textContent(id(`trojan-result-handled-${shellRow.id}`)), { timeout: 10_000 }).toBe(texts.isolated);
  expect(existsSync(shellPath)).toBe(false);

  // The isolated list and the source viewer: the PHP and the markup show as text; nothing runs.
  await page.click(id('tab-isolate'));
  await page.waitForSelector(id('trojan-isolate-page'));
  const item = (await isolated()).find((i) => i.originalPath === shellPath)!;
  await page.waitForSelector(id(`trojan-isolate-row-${item.id}`));
  await page.click(id(`trojan-isolate-view-${item.id}`));
  await page.waitForSelector(id('trojan-source-text'));
  await expect.poll(() => page.textContent(id('trojan-source-text'))).toBe(shell);
  expect(await page.locator(`${id('trojan-source-text')} script, ${id('trojan-source-text')} img`).count()).toBe(0);
  expect(await page.locator(`${id('trojan-source-text')} mark`).count()).toBeGreaterThan(0);
  expect(await page.evaluate(() => (globalThis as unknown as { __trojanRan?: number }).__trojanRan)).toBeUndefined();
  await page.click(id('trojan-source-fullscreen'));
  await page.waitForSelector(`${id('trojan-source')}[data-fullscreen="true"]`);
  await page.click(id('trojan-source-close'));
  await page.waitForSelector(id('trojan-source-text'), { state: 'detached' });

  // Restore over a file that now sits at the original path: asked once, then asked to overwrite.
  writeFileSync(shellPath, 'placeholder');
  await page.click(id(`trojan-isolate-restore-${item.id}`));
  await page.click(id('trojan-isolate-restore-confirm'));
  await page.waitForSelector(id('trojan-overwrite-message'));
  expect(await page.textContent(id('trojan-overwrite-message'))).toContain(shellPath);
  expect(readFileSync(shellPath, 'utf8')).toBe('placeholder');
  await page.click(id('trojan-overwrite-confirm'));
  await expect.poll(() => (existsSync(shellPath) ? readFileSync(shellPath, 'utf8') : ''), { timeout: 10_000 }).toBe(shell);
  await page.waitForSelector(id(`trojan-isolate-row-${item.id}`), { state: 'detached', timeout: 10_000 });
  expect(await page.evaluate(() => (globalThis as unknown as { __trojanRan?: number }).__trojanRan)).toBeUndefined();

  // Stop protecting the directory (asked first); the files stay.
  await page.click(id('tab-dirs'));
  await page.waitForSelector(id(`trojan-dir-row-${dir.id}`));
  await page.click(id(`trojan-dir-delete-${dir.id}`));
  await page.click(id('trojan-dir-delete-confirm'));
  await page.waitForSelector(id(`trojan-dir-row-${dir.id}`), { state: 'detached', timeout: 10_000 });
  expect(existsSync(shellPath)).toBe(true);
  return www;
}

/** The audit's trojan tab: a typed path scanned once, the shell listed pending, then recorded by hand. */
async function auditTab(www: string, texts: { pending: string; recorded: string }) {
  writeFileSync(join(www, 'upload.php'), shellFor('audit'));
  await page.goto(`${product.base}/#/audit/trojan`);
  await page.waitForSelector(id('audit-trojan-page'));
  await page.fill(id('audit-trojan-paths'), 'relative/path');
  await page.click(id('audit-trojan-start'));
  await page.waitForSelector(id('audit-trojan-error'));
  await page.fill(id('audit-trojan-paths'), www);
  await page.click(id('audit-trojan-start'));
  await expect.poll(async () => ((await api(product, token, 'GET', '/audit/trojan/scan')).data as { state: string } | null)?.state, { timeout: 30_000 }).toBe('complete');
  const row = ((await api(product, token, 'GET', '/audit/trojan/results')).data as { list: Row[] }).list.find((r) => r.name === 'upload.php')!;
  await page.waitForSelector(id(`audit-trojan-result-row-${row.id}`), { timeout: 10_000 });
  expect(await page.textContent(id(`audit-trojan-result-handled-${row.id}`))).toBe(texts.pending);
  await page.click(id(`audit-trojan-result-record-${row.id}`));
  await expect.poll(() => page.textContent(id(`audit-trojan-result-handled-${row.id}`)), { timeout: 10_000 }).toBe(texts.recorded);
}

async function settings(texts: { compiler: RegExp; star: string }) {
  await page.goto(`${product.base}/#/trojan/dirs`);
  await page.waitForSelector(id('trojan-dirs-page'));
  await page.click(id('tab-settings'));
  await page.waitForSelector(id('trojan-settings-form'));
  await page.fill(id('trojan-settings-whitelist'), '/var/www/cache\nvendor/cache');
  await page.click(id('trojan-settings-save'));
  await expect.poll(() => page.textContent(id('trojan-settings-error-whitelist'))).toContain(texts.star);
  await page.fill(id('trojan-library-rules'), 'rule broken { condition: $missing }');
  await page.click(id('trojan-library-save'));
  await expect.poll(() => page.textContent(id('trojan-library-error')), { timeout: 10_000 }).toMatch(texts.compiler);
  const library = (await api(product, token, 'GET', '/trojan/library')).data as { rules: string };
  expect(library.rules).toBe('');
  await page.keyboard.press('Escape');
  await page.waitForSelector(id('trojan-settings-form'), { state: 'detached' });
}

describe('trojan protection in a real browser (module off)', () => {
  it('works in Chinese', async () => {
    await flow({ reason: /[\u4e00-\u9fff]/, isolated: '已隔离', complete: '已完成' }, 'zh');
    await settings({ compiler: /^自定义规则有误，未保存：.*missing/s, star: '白名单的部分路径必须包含 *' });
    expect(errors).toEqual([]);
  });

  it('works in English', async () => {
    await switchLanguage(page, 'English', /[A-Za-z]/);
    const www = await flow({ reason: /^[^\u4e00-\u9fff]*[A-Za-z]/, isolated: 'Isolated', complete: 'Complete' }, 'en');
    await auditTab(www, { pending: 'Pending', recorded: 'Recorded' });
    await settings({ compiler: /^The custom rules have an error and were not saved: .*missing/s, star: 'A partial whitelist path must contain *' });
    expect(errors).toEqual([]);
  });

  it('stops a running scan from the page after confirming: it reads Stopped and its progress stays put (English, issue 22)', async () => {
    // Forty thousand small pages: a full scan runs for several seconds here, long enough to stop it
    // midway (twenty thousand once finished before the Stop was confirmed on a quiet machine).
    const www = mkdtempSync(join(tmpdir(), 'rampart-e2e-many-'));
    dirs.push(www);
    for (let d = 0; d < 100; d++) {
      mkdirSync(join(www, `d${d}`));
      for (let i = 0; i < 400; i++) writeFileSync(join(www, `d${d}`, `page${i}.php`), `<?php\n// page ${d}-${i}\n$title = 'Page ${i}';\necho htmlspecialchars($title);\n`);
    }
    const dir = await addDir(www);
    await openDirs(dir);
    const before = (await latestScan())?.id ?? 0;
    await page.click(id('trojan-scan-start'));
    await expect.poll(async () => (await latestScan())?.id ?? 0, { timeout: 10_000 }).toBeGreaterThan(before);
    const scan = (await latestScan())!.id;
    // Running: the page offers Stop, and files are being scanned.
    await page.waitForSelector(`${id('trojan-scan')}[data-scan-id="${scan}"][data-state="scanning"]`, { timeout: 10_000 });
    await expect.poll(async () => (await latestScan())!.done, { timeout: 10_000 }).toBeGreaterThan(0);

    await page.click(id('trojan-scan-stop'));
    await expect.poll(() => page.textContent('.ant-modal-confirm-content')).toBe('Stop the running scan? Files not scanned yet stay unscanned.');
    await page.click(id('trojan-scan-stop-confirm'));
    await page.waitForSelector(`${id('trojan-scan')}[data-scan-id="${scan}"][data-state="end"]`, { timeout: 20_000 });
    expect(await page.textContent(id('trojan-scan-state'))).toBe('Stopped');
    await page.waitForSelector(id('trojan-scan-start'));
    expect(await page.locator(id('trojan-scan-stop')).count()).toBe(0);
    const stopped = (await latestScan())!;
    expect(stopped).toMatchObject({ id: scan, state: 'end' });
    expect(stopped.done).toBeLessThan(40_000);
    // Longer than the page's poll (1 s) and the engine's progress saves (2 s): nothing moves any more.
    const shown = await page.textContent(id('trojan-scan-progress'));
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await latestScan()).toMatchObject({ id: scan, state: 'end', done: stopped.done });
    expect(await page.textContent(id('trojan-scan-progress'))).toBe(shown);
    expect((await api(product, token, 'POST', '/trojan/dirs/delete', { ids: [dir] })).code).toBe(0);
    expect(errors).toEqual([]);
  });

  it('trusts a finding after confirming: it is trusted, left in place, and a rescan does not report it (Chinese, issue 22)', async () => {
    await switchLanguage(page, '简体中文', /[\u4e00-\u9fff]/);
    const www = mkdtempSync(join(tmpdir(), 'rampart-e2e-www-'));
    dirs.push(www);
    const shellPath = join(www, 'trusted.php');
    writeFileSync(shellPath, shellFor('trust'));
    const dir = await addDir(www);
    await openDirs(dir);
    const scanOnce = async () => {
      const before = (await latestScan())?.id ?? 0;
      await page.click(id('trojan-scan-start'));
      await expect.poll(async () => (await latestScan())?.id ?? 0, { timeout: 10_000 }).toBeGreaterThan(before);
      const scan = (await latestScan())!.id;
      await page.waitForSelector(`${id('trojan-scan')}[data-scan-id="${scan}"][data-state="complete"]`, { timeout: 30_000 });
      return scan;
    };
    const first = await scanOnce();
    const row = (await results(first)).find((r) => r.name === 'trusted.php')!;
    expect(row).toBeDefined();
    await page.waitForSelector(id(`trojan-result-row-${row.id}`), { timeout: 10_000 });

    // Trusting asks first, naming the file.
    await page.click(id(`trojan-result-trust-${row.id}`));
    await expect.poll(() => page.textContent('.ant-modal-confirm-content')).toContain(`确定信任 ${shellPath} 吗？`);
    await page.click(id('trojan-result-trust-confirm'));
    await expect.poll(() => page.textContent(id(`trojan-result-handled-${row.id}`)), { timeout: 10_000 }).toBe('已信任');
    expect(await page.locator(id(`trojan-result-trust-${row.id}`)).count()).toBe(0);
    expect(readFileSync(shellPath, 'utf8')).toBe(shellFor('trust'));

    // A new scan of the same folder reports nothing: the page lists no finding and counts none.
    const second = await scanOnce();
    expect(await results(second)).toEqual([]);
    await page.waitForSelector(`${id('trojan-result-table')} .ant-table-placeholder`, { timeout: 10_000 });
    expect(await page.locator('[data-testid^="trojan-result-row-"]').count()).toBe(0);
    expect(await page.textContent(id('trojan-scan-flagged'))).toBe('发现 0 个木马');
    expect((await api(product, token, 'POST', '/trojan/dirs/delete', { ids: [dir] })).code).toBe(0);
    expect(errors).toEqual([]);
  });
});
