/*
 * The security audit's system and reinforcement tabs in a real browser, in Chinese and in English:
 * start an audit, watch it finish with a score and findings, filter them, apply one reinforcement
 * item after the confirmation and revert it, with the file's bytes back; no console errors; a
 * screenshot per language.
 *
 * The product audits a small Debian-like root this test writes into a temp dir (RAMPART_AUDIT_ROOT,
 * read by the agent's main entry only; commands are not run for it), never the host's /etc. The
 * item applied is the password age in login.defs: an in-place edit, journaled, no reload.
 * The finished run's HTML report is downloaded through "Export report" and opened offline.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { clickUntilGone, collectPageErrors, id, signIn, switchLanguage } from './browser-session.ts';
import { startProduct, type RunningProduct } from './product.ts';

let product: RunningProduct;
let browser: Browser;
let page: Page;
let root: string;
const errors: string[] = [];
const shots = process.env.RAMPART_SHOTS_DIR ?? join(tmpdir(), 'rampart-audit-shots');
const loginDefs = '# login.defs\nMAIL_DIR\t/var/mail\nPASS_MAX_DAYS\t99999\nPASS_MIN_DAYS\t0\nUMASK\t\t022\n';

function writeRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-audit-root-'));
  chmodSync(dir, 0o755);
  const files: Record<string, string> = {
    '/etc/passwd': 'root:x:0:0:root:/root:/bin/bash\nadmin:x:1000:1000:Admin:/home/admin:/bin/bash\n',
    '/etc/group': 'root:x:0:\nsudo:x:27:admin\nadmin:x:1000:\n',
    '/etc/shadow': 'root:$y$j9T$abc:19700:0:99999:7:::\nadmin:$y$j9T$def:19700:0:99999:7:::\n',
    '/home/admin/.ssh/authorized_keys': 'ssh-ed25519 AAAAC3Nza admin@laptop\n',
    '/etc/ssh/sshd_config': 'Include /etc/ssh/sshd_config.d/*.conf\nPermitRootLogin yes\nX11Forwarding yes\n',
    '/etc/login.defs': loginDefs,
    '/etc/systemd/journald.conf': '[Journal]\nStorage=volatile\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text, { mode: path === '/etc/shadow' ? 0o640 : 0o644 });
  }
  mkdirSync(join(dir, 'etc/ssh/sshd_config.d'), { recursive: true });
  return dir;
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

const item = 'pam.pass_max_days';

/**
 * "Export report" → HTML: the file the browser saves carries the page's score and title in the
 * reader's language, and opened on its own it asks the network for nothing (self-contained).
 */
async function exportedReport(title: string) {
  const score = (await page.textContent(`${id('audit-score')} .ant-statistic-content-value`))?.trim();
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(id('audit-report-html'))]);
  expect(download.suggestedFilename()).toMatch(/^rampart-audit-\d+-\d{4}-\d{2}-\d{2}\.html$/);
  const path = join(shots, download.suggestedFilename());
  await download.saveAs(path);
  const report = await page.context().newPage();
  const requests: string[] = [];
  report.on('request', (r) => requests.push(r.url()));
  await report.goto(`file://${path}`);
  expect(await report.textContent('h1')).toBe(title);
  expect(await report.getAttribute('.score', 'data-score')).toBe(score);
  expect(await report.locator('#failed .finding').count()).toBeGreaterThan(0);
  expect(requests).toEqual([`file://${path}`]);
  await report.close();
}

async function flow(lang: 'zh' | 'en', texts: { start: string; again: string; warning: string; rootLogin: RegExp; applied: string; reverted: string; reportTitle: string }) {
  await page.goto(`${product.base}/#/audit/system`);
  await page.waitForSelector(id('audit-system-page'));
  const start = page.locator(id('audit-start'));
  // The first visit has no run yet; the second (English) comes after the Chinese run.
  await expect.poll(() => start.textContent()).toBe(lang === 'zh' ? texts.start : texts.again);
  await start.click();
  await expect.poll(() => page.getAttribute(id('audit-state'), 'data-state'), { timeout: 20_000 }).toBe('finished');
  expect(await start.textContent()).toBe(texts.again);
  expect(Number(await page.textContent(`${id('audit-score')} .ant-statistic-content-value`))).toBeGreaterThanOrEqual(0);
  expect(Number(await page.textContent(id('audit-failed-danger')))).toBeGreaterThan(0);
  // The findings: failed first; root login over SSH is one, with where it was seen.
  const finding = page.locator(id('audit-result-ssh.permit_root_login'));
  await expect.poll(() => finding.textContent()).toMatch(texts.rootLogin);
  expect(await finding.textContent()).toContain('/etc/ssh/sshd_config:2');
  expect(await page.textContent(id('audit-level-ssh.permit_root_login'))).toBe(texts.warning);
  await page.screenshot({ path: join(shots, `audit-system-${lang}.png`), fullPage: true });
  await exportedReport(texts.reportTitle);

  await page.goto(`${product.base}/#/audit/system_reinforce`);
  await page.waitForSelector(id(`audit-reinforce-row-${item}`));
  await page.click(id(`audit-reinforce-check-${item}`));
  await page.click(id('audit-reinforce-apply'));
  await clickUntilGone(page, id('audit-reinforce-apply-confirm'), id('audit-reinforce-apply-confirm'));
  await expect.poll(() => page.textContent(id(`audit-reinforce-state-${item}`)), { timeout: 15_000 }).toContain(texts.applied);
  expect(readFileSync(join(root, 'etc/login.defs'), 'utf8')).toMatch(/^PASS_MAX_DAYS\t365$/m);
  await page.screenshot({ path: join(shots, `audit-reinforce-${lang}.png`), fullPage: true });

  await page.waitForSelector('.ant-modal-confirm-success', { state: 'detached', timeout: 10_000 });
  await page.click(id(`audit-reinforce-revert-${item}`));
  await clickUntilGone(page, id('audit-reinforce-revert-confirm'), id('audit-reinforce-revert-confirm'));
  await expect.poll(() => page.textContent(id(`audit-reinforce-state-${item}`)), { timeout: 15_000 }).toContain(texts.reverted);
  expect(readFileSync(join(root, 'etc/login.defs'), 'utf8')).toBe(loginDefs);
  await page.waitForSelector('.ant-modal-confirm-success', { state: 'detached', timeout: 10_000 });
}

describe('the security audit in a real browser (a fixture root, never the host)', () => {
  it('works in Chinese', async () => {
    await flow('zh', { start: '开始体检', again: '重新体检', warning: '警告', rootLogin: /root/, applied: '已加固', reverted: '已回滚', reportTitle: 'Rampart 安全体检报告' });
    expect(errors).toEqual([]);
  });

  it('works in English', async () => {
    await switchLanguage(page, 'English', /[A-Za-z]/);
    await flow('en', { start: 'Start audit', again: 'Audit again', warning: 'Warning', rootLogin: /root/i, applied: 'Applied', reverted: 'Reverted', reportTitle: 'Rampart security audit report' });
    expect(errors).toEqual([]);
  });
});
