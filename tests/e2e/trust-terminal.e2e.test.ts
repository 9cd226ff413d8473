/*
 * The trust terminal (issue 28) in Chromium, on an injected clock: the console and agent of the test
 * harness run on `h.clock` (a real agent on a real socket, desired state only — the kernel side of a
 * trusted address is in apps/agent/tests), and the page's timers run on Playwright's clock, so beats
 * and the grace after the last one are stepped, not waited for.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { terminalBeatSeconds, terminalGraceSeconds } from '@rampart/contracts';
import { startHarness, type Harness } from '../../apps/console/tests/support/harness.ts';
import { sweepTerminals } from '../../apps/console/src/services/trust-terminals.ts';
import { field, id, logIn } from './browser-session.ts';
import { launchBrowser, newBrowserContext, repo } from './product.ts';

let h: Harness;
let browser: Browser;
let base = '';
let admin: { username: string; password: string };

beforeAll(async () => {
  h = await startHarness({ webDir: join(repo, 'apps/web/dist') });
  admin = await h.register();
  await h.addUser('other', 'roamer', 'Secret123');
  base = await h.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

const trusted = async () => (await h.agentClient.call('trust.check', { ip: '127.0.0.1' })).trusted;
const terminalRow = () => h.console.ctx.db.prepare('SELECT * FROM trust_terminals WHERE ip LIKE ?').get('%127.0.0.1') as { last_beat: number; trusted_until: number | null } | undefined;
const stateOf = (page: Page) => page.getAttribute(id('trust-state'), 'data-state');

async function openTerminal(locale: 'zh-CN' | 'en-US'): Promise<Page> {
  const context = await newBrowserContext(browser, { locale });
  const page = await context.newPage();
  // The page's timers (the beat) run on a clock the test moves.
  await page.clock.install({ time: h.clock.now });
  await page.goto(`${base}/trust`);
  return page;
}

describe('trust terminal page in a real browser, clock injected', () => {
  it('keeps the address trusted while the page beats and lets it go a grace after the page closes (English)', async () => {
    const page = await openTerminal('en-US');
    await expect.poll(() => page.textContent('h1')).toBe('Rampart · Trust terminal');
    await page.click(id('trust-sign-in'));
    await expect.poll(() => page.textContent(id('trust-error'))).toBe('Enter the account and password');
    await page.fill(id('trust-user'), 'roamer');
    await page.fill(id('trust-password'), 'wrong-one');
    await page.click(id('trust-sign-in'));
    await expect.poll(() => page.textContent(id('trust-error'))).toMatch(/^Wrong account or password/);
    await page.fill(id('trust-password'), 'Secret123');
    await page.click(id('trust-sign-in'));
    // The address the panel sees, said to be local (loopback) before anything is trusted.
    await expect.poll(() => page.textContent(id('trust-address'))).toBe('127.0.0.1');
    expect(await page.isVisible(id('trust-local'))).toBe(true);
    expect(await trusted()).toBe(false);
    await page.click(id('trust-start'));
    await expect.poll(() => stateOf(page)).toBe('trusted');
    expect(await trusted()).toBe(true);
    const startedAt = h.clock.now;

    // Ten minutes of beats: each step moves both clocks by one beat interval.
    for (let i = 0; i < 20; i++) {
      h.clock.now += terminalBeatSeconds * 1000;
      await page.clock.runFor(terminalBeatSeconds * 1000);
      await expect.poll(() => terminalRow()?.last_beat).toBe(h.clock.now);
      sweepTerminals(h.console.ctx, h.clock.now);
    }
    expect(h.clock.now - startedAt).toBeGreaterThan(terminalGraceSeconds * 1000);
    expect(await trusted()).toBe(true);
    expect(terminalRow()?.trusted_until).toBe(h.clock.now + terminalGraceSeconds * 1000);

    // The page closes: no more beats; the trust ends a grace after the last one.
    await page.context().close();
    h.clock.now += terminalGraceSeconds * 1000 - 1000;
    sweepTerminals(h.console.ctx, h.clock.now);
    expect(await trusted()).toBe(true);
    h.clock.now += 2000;
    sweepTerminals(h.console.ctx, h.clock.now);
    expect(await trusted()).toBe(false);
    await h.console.ctx.events.flush();
    const events = await h.agentClient.call('events.query', { limit: 100 });
    expect(events.list.map((e) => e.kind)).toEqual(expect.arrayContaining(['terminal.signed_in', 'terminal.started', 'terminal.expired']));
  });

  it('shows the terminal to an administrator, who ends it: the page says so at its next beat; the home page gives the link and the command', async () => {
    const terminal = await openTerminal('en-US');
    await terminal.fill(id('trust-user'), 'roamer');
    await terminal.fill(id('trust-password'), 'Secret123');
    await terminal.click(id('trust-sign-in'));
    await terminal.click(id('trust-start'));
    await expect.poll(() => stateOf(terminal)).toBe('trusted');

    const context = await newBrowserContext(browser, { locale: 'en-US', viewport: { width: 1440, height: 900 } });
    const console = await context.newPage();
    await logIn(console, base, admin.username, admin.password);
    await console.waitForURL(/#\/dashboard/);
    await console.click(id('trust-terminal-download'));
    await expect.poll(() => console.textContent(id('trust-terminal-link'))).toBe(`${base}/trust`);
    expect(await console.textContent(id('trust-terminal-command'))).toContain(`npx rampart trust --url ${base} --user <account>`);
    await console.keyboard.press('Escape');

    await console.goto(`${base}/#/system/trust_terminal`);
    // The first test's terminal is listed too, as lapsed, until it may no longer resume.
    const live = h.console.ctx.db.prepare('SELECT id FROM trust_terminals WHERE trusted_until IS NOT NULL').all() as { id: number }[];
    expect(live).toHaveLength(1);
    const row = console.locator(id(`trust-terminal-row-${live[0]!.id}`));
    await expect.poll(() => row.count()).toBe(1);
    expect(await console.locator('[data-testid^="trust-terminal-row-"]').count()).toBe(2);
    expect(await row.textContent()).toContain('roamer');
    expect(await row.textContent()).toContain('127.0.0.1');
    // The console speaks the account's language (Chinese by default), the terminal its own.
    expect(await row.locator('[data-testid^="trust-terminal-state-"]').textContent()).toBe('已信任');
    await row.locator('[data-testid^="trust-terminal-end-"]').click();
    await console.click(id('trust-terminal-end-confirm'));
    await expect.poll(() => row.count()).toBe(0);
    expect(await trusted()).toBe(false);

    // The terminal learns it at its next beat.
    h.clock.now += terminalBeatSeconds * 1000;
    await terminal.clock.runFor(terminalBeatSeconds * 1000);
    await expect.poll(() => terminal.textContent(id('trust-ended'))).toBe('This trust terminal is not signed in or has ended: sign in again');
    await context.close();
    await terminal.context().close();
  });

  it('speaks Chinese, survives a reload, and ends on "Stop trusting" at once (中文)', async () => {
    const page = await openTerminal('zh-CN');
    await expect.poll(() => page.textContent('h1')).toBe('Rampart · 信任终端');
    await page.fill(id('trust-user'), 'roamer');
    await page.fill(id('trust-password'), 'Secret123');
    await page.click(id('trust-sign-in'));
    await page.waitForSelector(id('trust-start'));
    await page.selectOption(id('trust-keep'), '1');
    await page.click(id('trust-start'));
    await expect.poll(() => page.textContent(id('trust-state'))).toBe('已信任');
    expect(await trusted()).toBe(true);
    // A reload keeps the terminal (its token is in this tab's session storage).
    await page.reload();
    await expect.poll(() => stateOf(page)).toBe('trusted');
    // The language switch is the page's own.
    await page.click(id('trust-language'));
    await expect.poll(() => page.textContent(id('trust-state'))).toBe('Trusted');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.click(id('trust-stop'));
    await expect.poll(() => page.textContent(id('trust-ended'))).toBe('Trust stopped and the terminal ended');
    expect(await trusted()).toBe(false);
    // Signed out: the sign-in form is one click away.
    await page.click(id('trust-again'));
    await page.waitForSelector(field('trust-user').split(', ')[0]!);
    await page.context().close();
  });
});
