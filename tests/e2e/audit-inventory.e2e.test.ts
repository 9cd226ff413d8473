/*
 * The audit's user and process tabs in a real browser, in Chinese and in English: the users of a
 * small root this test writes into a temp dir (RAMPART_AUDIT_ROOT; never the host's /etc), with a
 * second UID 0 flagged and explained; the real processes of this machine, the product's own agent
 * among them (found with the search by its pid), with its libraries in the expanded row.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { collectPageErrors, id, signIn, switchLanguage } from './browser-session.ts';
import { startProduct, type RunningProduct } from './product.ts';

let product: RunningProduct;
let browser: Browser;
let page: Page;
let root: string;
const errors: string[] = [];
const shots = process.env.RAMPART_SHOTS_DIR ?? join(tmpdir(), 'rampart-audit-shots');

function writeRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-audit-inv-'));
  const files: Record<string, string> = {
    '/etc/passwd': 'root:x:0:0:root:/root:/bin/bash\ntoor:x:0:0:second root:/root:/bin/bash\nadmin:x:1000:1000:Admin:/home/admin:/bin/bash\n',
    '/etc/group': 'root:x:0:\nsudo:x:27:admin\nadmin:x:1000:\n',
    '/etc/shadow': 'root:$y$j9T$abc:19700:0:99999:7:::\ntoor:$1$ab$cd:19700:0:99999:7:::\nadmin:$y$j9T$def:19700:0:99999:7:::\n',
    '/etc/ssh/sshd_config': 'PermitRootLogin no\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** The product's agent: the process whose environment holds this product's data dir and whose command runs the agent. */
function agentPid(): number {
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const environ = readFileSync(`/proc/${name}/environ`, 'utf8');
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (environ.includes(`RAMPART_DATA_DIR=${product.dataDir}`) && cmdline.includes('apps/agent')) return Number(name);
    } catch {
      // ended meanwhile
    }
  }
  throw new Error('the agent process was not found');
}

beforeAll(async () => {
  root = writeRoot();
  product = await startProduct({ RAMPART_AUDIT_ROOT: root });
  ({ browser, page } = await signIn(product));
  collectPageErrors(page, errors);
  mkdirSync(shots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

async function flow(lang: 'zh' | 'en', texts: { uid0: RegExp; denied: string; libraries: RegExp }) {
  await page.goto(`${product.base}/#/audit/account`);
  const toor = page.locator(id('audit-account-row-toor'));
  await toor.waitFor({ timeout: 20_000 });
  expect(await page.textContent(id('audit-account-findings-toor'))).toMatch(texts.uid0);
  expect(await page.getAttribute(id('audit-account-findings-toor-uid0_duplicate'), 'data-level')).toBe('danger');
  expect(await page.textContent(id('audit-account-remote-root'))).toContain(texts.denied);
  expect(await page.textContent(id('audit-account-row-admin'))).toContain('admin, sudo');
  await toor.locator('.ant-table-row-expand-icon').click();
  expect(await page.textContent(id('audit-account-detail-toor'))).toContain('uid 0 (/etc/passwd:2)');
  await page.screenshot({ path: join(shots, `audit-account-${lang}.png`), fullPage: true });

  const pid = agentPid();
  await page.goto(`${product.base}/#/audit/process`);
  await page.locator(id('audit-process-table')).waitFor({ timeout: 20_000 });
  await page.fill(`${id('audit-process-search')} input, input${id('audit-process-search')}`, String(pid));
  await page.keyboard.press('Enter');
  const row = page.locator(id(`audit-process-row-${pid}`));
  await row.waitFor({ timeout: 20_000 });
  expect(await row.textContent()).toContain('root');
  expect(await row.textContent()).toContain(`PID ${pid}`);
  await row.locator('.ant-table-row-expand-icon').click();
  await expect.poll(() => page.textContent(id(`audit-process-modules-${pid}`)), { timeout: 15_000 }).toMatch(/libc\.so\.6/);
  expect(await page.textContent(id(`audit-process-detail-${pid}`))).toMatch(texts.libraries);
  await page.screenshot({ path: join(shots, `audit-process-${lang}.png`), fullPage: true });
}

describe('the user and process audit in a real browser', () => {
  it('works in Chinese', async () => {
    await flow('zh', { uid0: /多余的 UID 0/, denied: '禁止 SSH', libraries: /加载的库（\d+）/ });
    expect(errors).toEqual([]);
  });

  it('works in English', async () => {
    await switchLanguage(page, 'English', /[A-Za-z]/);
    await flow('en', { uid0: /Second UID 0/, denied: 'SSH denied', libraries: /Mapped libraries \(\d+\)/ });
    expect(errors).toEqual([]);
  });
});
