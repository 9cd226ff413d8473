/*
 * The security audit in a real browser, in Chinese and in English, on one started product:
 * - system and reinforcement tabs: start an audit, watch it finish with a score and findings, apply
 *   one reinforcement item after the confirmation and revert it, with the file's bytes back; the
 *   finished run's HTML report is downloaded through "Export report" and opened offline;
 * - user tab: a second UID 0 (`toor`) flagged and explained, SSH access as sshd's rules decide it;
 * - process tab: the real processes of this machine, the product's own agent among them (found with
 *   the search by its pid), with its libraries in the expanded row;
 * - patch tab: check lists the pending updates with their levels, one is installed after the
 *   confirmation, then "install finished" and the reboot suggestion.
 * No console errors; a screenshot per tab and language.
 *
 * The product audits a small Debian-like root this test writes into a temp dir (RAMPART_AUDIT_ROOT,
 * read by the agent's main entry only; commands are not run for it), never the host's /etc. The
 * item applied is the password age in login.defs: an in-place edit, journaled, no reload. Patches
 * run the real apt-get against a sandbox apt world (RAMPART_AUDIT_APT_CONFIG: local repositories
 * built with dpkg-deb + apt-ftparchive, a dpkg root in a temp dir), never the host's packages.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { clickUntilGone, collectPageErrors, id, signIn, switchLanguage } from './browser-session.ts';
import { startProduct, type RunningProduct } from './product.ts';
import { makeAptSandbox, removeAptSandbox, type AptSandbox } from '../../packages/audit/tests/apt-sandbox.ts';

let product: RunningProduct;
let browser: Browser;
let page: Page;
let root: string;
let apt: AptSandbox | undefined;
const errors: string[] = [];
const shots = process.env.RAMPART_SHOTS_DIR ?? join(tmpdir(), 'rampart-audit-shots');
const loginDefs = '# login.defs\nMAIL_DIR\t/var/mail\nPASS_MAX_DAYS\t99999\nPASS_MIN_DAYS\t0\nUMASK\t\t022\n';

function writeRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-audit-root-'));
  chmodSync(dir, 0o755);
  const files: Record<string, string> = {
    // toor: a second uid 0 with an MD5 hash (the user tab's finding; the system audit fails
    // accounts.uid0_only_root for it too), kept off SSH by DenyUsers.
    '/etc/passwd': 'root:x:0:0:root:/root:/bin/bash\ntoor:x:0:0:second root:/root:/bin/bash\nadmin:x:1000:1000:Admin:/home/admin:/bin/bash\n',
    '/etc/group': 'root:x:0:\nsudo:x:27:admin\nadmin:x:1000:\n',
    '/etc/shadow': 'root:$y$j9T$abc:19700:0:99999:7:::\ntoor:$1$ab$cd:19700:0:99999:7:::\nadmin:$y$j9T$def:19700:0:99999:7:::\n',
    '/home/admin/.ssh/authorized_keys': 'ssh-ed25519 AAAAC3Nza admin@laptop\n',
    '/etc/ssh/sshd_config': 'Include /etc/ssh/sshd_config.d/*.conf\nPermitRootLogin yes\nX11Forwarding yes\nDenyUsers toor\n',
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
  apt = makeAptSandbox([
    { name: 'rp-alpha', suite: 'main' },
    { name: 'rp-beta', suite: 'security' },
  ]);
  product = await startProduct({ RAMPART_AUDIT_ROOT: root, RAMPART_AUDIT_APT_CONFIG: apt.apt.env!.APT_CONFIG! });
  ({ browser, page } = await signIn(product));
  collectPageErrors(page, errors);
  mkdirSync(shots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
  if (apt) removeAptSandbox(apt);
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

async function flow(lang: 'zh' | 'en', texts: { start: string; again: string; warning: string; danger: string; rootLogin: RegExp; applied: string; reverted: string; reportTitle: string }) {
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
  // Filtered to danger: toor's uid 0 is a finding here as on the user tab, pointing at its passwd line.
  await page.click(id('audit-filter-level'));
  await page.click(`.ant-select-item-option:has-text("${texts.danger}")`);
  await expect.poll(() => page.textContent(id('audit-result-accounts.uid0_only_root'))).toContain('/etc/passwd:2');
  expect(await page.locator(id('audit-result-ssh.permit_root_login')).count()).toBe(0);
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

async function inventoryFlow(lang: 'zh' | 'en', texts: { uid0: RegExp; denied: string; allowed: string; libraries: RegExp }) {
  await page.goto(`${product.base}/#/audit/account`);
  const toor = page.locator(id('audit-account-row-toor'));
  await toor.waitFor({ timeout: 20_000 });
  expect(await page.textContent(id('audit-account-findings-toor'))).toMatch(texts.uid0);
  expect(await page.getAttribute(id('audit-account-findings-toor-uid0_duplicate'), 'data-level')).toBe('danger');
  // sshd's rules decide: DenyUsers keeps toor off, PermitRootLogin yes lets root in.
  expect(await page.textContent(id('audit-account-remote-toor'))).toContain(texts.denied);
  expect(await page.textContent(id('audit-account-remote-root'))).toContain(texts.allowed);
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

/**
 * Check, then install one package after the confirmation. Chinese: both updates are listed
 * (security: important, the other optional) and the security one is installed; English checks again
 * (only the other is pending now) and installs it.
 */
async function patchFlow(lang: 'zh' | 'en', texts: { levels: Record<string, string>; install: string; finished: string; reboot: RegExp }) {
  await page.goto(`${product.base}/#/audit/patch`);
  await page.waitForSelector(id('audit-patch-page'));
  await page.click(id('audit-patch-check'));
  await expect.poll(() => page.getAttribute(id('audit-patch-state'), 'data-state'), { timeout: 30_000 }).toBe('finished');
  // English checks again: the state was "finished" already, the list (one row fewer) says the check ran.
  const rows = page.locator(`${id('audit-patch-list')} tr[data-testid^="audit-patch-row-"]`);
  await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(Object.keys(texts.levels).length);
  for (const [name, level] of Object.entries(texts.levels)) {
    await page.waitForSelector(id(`audit-patch-row-${name}`));
    expect(await page.textContent(`${id(`audit-patch-row-${name}`)} .ant-tag`)).toBe(level);
    expect(await page.getAttribute(id(`audit-patch-status-${name}`), 'data-status')).toBe('waiting_update');
  }
  await page.click(id(`audit-patch-install-${texts.install}`));
  await clickUntilGone(page, id('audit-patch-install-confirm'), id('audit-patch-install-confirm'));
  await expect.poll(() => page.getAttribute(id(`audit-patch-status-${texts.install}`), 'data-status'), { timeout: 30_000 }).toBe('install_finished');
  expect(await page.textContent(id(`audit-patch-status-${texts.install}`))).toContain(texts.finished);
  await expect.poll(() => page.textContent(id('audit-patch-reboot'))).toMatch(texts.reboot);
  // dpkg really installed it into the sandbox root.
  expect(readFileSync(join(apt!.root, 'usr/share', texts.install, 'hello.txt'), 'utf8')).toBe(`${texts.install} 1.1\n`);
  await page.screenshot({ path: join(shots, `audit-patch-${lang}.png`), fullPage: true });
}

describe('the security audit in a real browser (a fixture root and a sandbox apt, never the host)', () => {
  it('works in Chinese', async () => {
    await flow('zh', { start: '开始体检', again: '重新体检', warning: '警告', danger: '危险', rootLogin: /root/, applied: '已加固', reverted: '已回滚', reportTitle: 'Rampart 安全体检报告' });
    await inventoryFlow('zh', { uid0: /多余的 UID 0/, denied: '禁止 SSH', allowed: '允许 SSH', libraries: /加载的库（\d+）/ });
    await patchFlow('zh', { levels: { 'rp-alpha': '可选', 'rp-beta': '重要' }, install: 'rp-beta', finished: '安装完成', reboot: /建议重启服务器/ });
    expect(errors).toEqual([]);
  });

  it('works in English', async () => {
    await switchLanguage(page, 'English', /[A-Za-z]/);
    await flow('en', { start: 'Start audit', again: 'Audit again', warning: 'Warning', danger: 'Danger', rootLogin: /root/i, applied: 'Applied', reverted: 'Reverted', reportTitle: 'Rampart security audit report' });
    await inventoryFlow('en', { uid0: /Second UID 0/, denied: 'SSH denied', allowed: 'SSH allowed', libraries: /Mapped libraries \(\d+\)/ });
    await patchFlow('en', { levels: { 'rp-alpha': 'Optional' }, install: 'rp-alpha', finished: 'Install finished', reboot: /reboot of the server is suggested/ });
    expect(errors).toEqual([]);
  });
});
