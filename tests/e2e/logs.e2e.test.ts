import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { AgentClient } from '@rampart/agent-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, emptyHint, field, id, inEnglish, signIn } from './browser-session.ts';
import { startProduct, type RunningProduct } from './product.ts';

let product: RunningProduct;
let browser: Browser;
let page: Page;
let token = '';

beforeAll(async () => {
  product = await startProduct();
  ({ browser, page, token } = await signIn(product));
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe('the log section and log settings in a real browser', () => {
  it('shows the sign-in in the event log, with its detail, in Chinese and in English', async () => {
    await page.goto(`${product.base}/#/log/system`);
    await page.waitForSelector(id('log-table'));
    await expect.poll(() => page.textContent(id('log-table')), { timeout: 10_000 }).toContain('登录面板成功');
    await page.click(`${id('log-table')} tr:has-text("登录面板成功")`);
    await page.waitForSelector(id('log-detail'));
    expect(await page.textContent(id('log-detail'))).toContain('127.0.0.1');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.isVisible(id('log-no-more'))).toBe(true);

    await inEnglish(page, async () => {
      await page.waitForSelector(id('log-table'));
      await expect.poll(() => page.textContent(id('log-table'))).toContain('signed in to the panel');
    });
    await page.waitForSelector(id('log-table'));
  });

  it('says what an administrative action changed, in Chinese and in English (issue 27)', async () => {
    const added = await api(product, token, 'POST', '/firewall/lists/add', { list: 'black', addresses: ['198.51.100.23'], remark: 'scanner' });
    expect(added.code).toBe(0);
    // The console hands events to the agent's store in batches: wait until it is there, then open the page.
    await expect.poll(async () => JSON.stringify((await api(product, token, 'GET', '/log/system')).data), { timeout: 10_000 }).toContain('198.51.100.23');
    await page.goto(`${product.base}/#/log/system`);
    await page.reload();
    await page.waitForSelector(id('log-table'));
    // Never the call's URL: the object and its fields, in the reader's words.
    await expect.poll(() => page.textContent(id('log-table')), { timeout: 10_000 }).toContain('添加了防火墙名单条目');
    const zh = await page.textContent(id('log-table'));
    expect(zh).toContain('名单：黑名单；地址：198.51.100.23；备注：scanner');
    expect(zh).not.toContain('/magapi');
    await inEnglish(page, async () => {
      await page.waitForSelector(id('log-table'));
      await expect.poll(() => page.textContent(id('log-table'))).toContain('list: blacklist; addresses: 198.51.100.23; remark: scanner');
    });
    await page.waitForSelector(id('log-table'));
  });

  it('packs a download, counts down and saves the CSV by itself', async () => {
    const download = page.waitForEvent('download', { timeout: 20_000 });
    await page.click(id('log-download'));
    await page.waitForSelector(id('log-download-keep'));
    const saved = await download;
    const csv = gunzipSync(readFileSync((await saved.path())!)).toString('utf8');
    expect(csv.startsWith('\uFEFF编号,时间,级别,模块')).toBe(true);
    expect(csv).toContain('登录面板成功');
  });

  it('lists the notice of a module turned off, marks all read and the badge follows', async () => {
    expect((await api(product, token, 'POST', '/module_switch', { module: 'firewall', status: 0 })).code).toBe(0);
    await page.goto(`${product.base}/#/log/notice`);
    await page.waitForSelector(id('notice-table'));
    await expect.poll(() => page.textContent(id('notice-table')), { timeout: 10_000 }).toContain('防护模块已关闭');
    await page.click(id('notice-mark-all'));
    await expect.poll(async () => (await api(product, token, 'GET', '/log/notice/unread')).data, { timeout: 10_000 }).toEqual({ unread: 0 });
    await inEnglish(page, async () => {
      await page.waitForSelector(id('notice-table'));
      await expect.poll(() => page.textContent(id('notice-table'))).toContain('Protection module turned off');
      expect(await page.textContent(id('log-notice-page'))).toContain('Mark all as read');
    });
  });

  it('shows request snapshots and clears them after confirmation', async () => {
    // Website protection fills this store; until it ships, the test stores one through the agent's socket.
    const agent = new AgentClient(join(product.dataDir, 'run', 'agent.sock'));
    const { accepted } = await agent.call('photos.append', {
      photos: [{ site: 'shop.test', ip: '192.0.2.66', method: 'POST', url: '/search.php', headers: 'Host: shop.test', post_data: "q=1' UNION SELECT password FROM users--" }],
    });
    agent.close();
    expect(accepted).toBe(1);
    await page.goto(`${product.base}/#/log/photo`);
    await page.waitForSelector(id('log-photo-page'));
    await expect.poll(() => page.textContent(id('log-photo-page')), { timeout: 10_000 }).toContain('/search.php');
    await page.click('[data-testid^="photo-row-"]');
    await page.waitForSelector(id('photo-detail'));
    await expect.poll(() => page.textContent(id('photo-detail'))).toContain('UNION SELECT password');
    await page.keyboard.press('Escape');
    await inEnglish(page, async () => {
      await page.waitForSelector(id('photo-table'));
      await expect.poll(() => page.textContent(id('log-photo-page'))).toContain('Request type');
      expect(await page.textContent(id('log-photo-page'))).toContain('1 snapshots · kept 90 days');
    });
    await page.click(id('photo-clear'));
    await page.click(id('photo-clear-confirm'));
    await expect.poll(async () => (await api(product, token, 'GET', '/log/photo/base')).data, { timeout: 10_000 }).toMatchObject({ count: 0 });
    await expect.poll(() => page.isVisible('[data-testid^="photo-row-"]')).toBe(false);
  });

  it('says when no event matches the filters, and what an empty snapshot list waits for, in Chinese and in English (issue 27)', async () => {
    const searchNothing = async () => {
      await page.goto(`${product.base}/#/log/system`);
      await page.waitForSelector(id('log-table'));
      await page.fill(field('log-filter-keyword'), 'no-such-event-e2e');
      await page.click(id('log-search'));
      await page.waitForSelector(id('log-empty'), { timeout: 10_000 });
    };
    await searchNothing();
    expect(await emptyHint(page, 'log')).toEqual(['没有符合这些筛选条件的事件。', '请选择更长的时间范围，或清除筛选条件。']);
    // Snapshots: none stored (the test before clears them), the default period of 7 days.
    await page.goto(`${product.base}/#/log/photo`);
    await page.waitForSelector(id('photo-empty'), { timeout: 10_000 });
    expect(await emptyHint(page, 'photo')).toEqual(['这段时间内没有请求快照。', '选择更长的时间范围可查看更早的记录。']);

    await inEnglish(page, async () => {
      await page.waitForSelector(id('photo-empty'));
      expect(await emptyHint(page, 'photo')).toEqual(['No request snapshot in this period.', 'Choose a longer period to see older records.']);
      await searchNothing();
      expect(await emptyHint(page, 'log')).toEqual(['No event matches these filters.', 'Choose a longer period, or clear the filters.']);
    });
  });

  it('refuses bad log settings on the field and saves good ones', async () => {
    await page.goto(`${product.base}/#/system/basic`);
    await page.waitForSelector(id('logset-form'));
    await page.fill(field('logset-keep-days'), '10');
    await page.click(id('logset-save'));
    await expect.poll(() => page.textContent(id('logset-form'))).toContain('日志保留天数须为 30-3650 的整数');
    expect((await api(product, token, 'GET', '/system/log')).data).toMatchObject({ keep_days: 90 });
    await page.fill(field('logset-keep-days'), '45');
    await page.click(id('logset-save'));
    await expect.poll(async () => (await api(product, token, 'GET', '/system/log')).data, { timeout: 10_000 }).toMatchObject({ keep_days: 45 });
    await page.reload();
    await page.waitForSelector(id('logset-form'));
    expect(await page.inputValue(field('logset-keep-days'))).toBe('45');
  });

  it('adds a backup rule whose password is kept but never shown', async () => {
    await page.goto(`${product.base}/#/system/log`);
    await page.waitForSelector(id('backup-table'));
    await page.click(id('backup-add'));
    await page.waitForSelector(id('backup-form'));
    await page.click(id('backup-type-sftp'));
    await page.fill(field('backup-domain'), 'backup.example.net');
    await page.fill(field('backup-username'), 'logs');
    await page.fill(field('backup-password'), 'Very-secret-1');
    await page.fill(field('backup-save-path'), '/srv/logs');
    await page.click(id('backup-save'));
    await expect.poll(() => page.textContent(id('backup-table')), { timeout: 10_000 }).toContain('backup.example.net');
    const rules = (await api(product, token, 'GET', '/system/log_backup')).data as { rules: { has_password: boolean }[] };
    expect(rules.rules).toHaveLength(1);
    expect(rules.rules[0]!.has_password).toBe(true);
    expect(await page.content()).not.toContain('Very-secret-1');
  });
});
