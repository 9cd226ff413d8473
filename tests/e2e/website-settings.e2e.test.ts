/*
 * The website module's settings tabs (base, request, protect, sql, attack, response) in a real
 * browser, in Chinese and in English, against the whole product: on each tab a field is changed,
 * saved, the page is loaded again and the value read back from the page and from the console's API;
 * one invalid input per tab shows its message in the page's language and saves nothing. The
 * authorization password rule (8-50 bytes, not only digits, not only letters) and the keyword
 * libraries' `++` / `--` / `==` rules are checked in the page; the response's custom content is kept.
 *
 * No site is protected here: the settings are the console's desired state (what the gateway does
 * with them is proven by the gateway's own tests).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, field, id, inEnglish, signIn } from './browser-session.ts';
import { startProduct, type RunningProduct } from './product.ts';
import { box, openWebsiteTab, resultDialog } from './website-page.ts';

/** For the tests that make many changes, each answered after the gateway reloaded. */
const long = 180_000;

/** What the page shows after an action: a little slack for a loaded machine. */
const ui = { timeout: 10_000 };

let product: RunningProduct;
let browser: Browser;
let page: Page;
let token = '';


// eslint-disable-next-line @typescript-eslint/no-explicit-any
const stored = async (tab: string): Promise<any> => (await api(product, token, 'GET', `/website/${tab}`)).data;

/** Opens a settings tab afresh: the values shown come from the console. */
const openTab = (tab: string) => openWebsiteTab(page, product.base, tab, `web-${tab}-save`);

/** Opens a select by its test id and clicks one of its options (by event: a fading dropdown may lie over it). */
async function choose(selectId: string, optionId: string) {
  await page.click(id(selectId));
  await page.waitForSelector(id(optionId));
  await page.dispatchEvent(id(optionId), 'click');
  await expect.poll(() => page.isVisible(id(optionId)), ui).toBe(false);
}

/** Saves the tab and waits for the console's "saved" dialog. */
async function save(tab: string, saved = '保存成功') {
  await page.click(id(`web-${tab}-save`));
  await expect.poll(() => page.textContent(resultDialog), { timeout: 15_000 }).toBe(saved);
  await page.waitForSelector(resultDialog, { state: 'detached', timeout: 10_000 });
}

const selectText = (selectId: string) => page.textContent(`${id(selectId)} .ant-select-content, ${id(selectId)} .ant-select-selection-item`);

beforeAll(async () => {
  product = await startProduct();
  ({ browser, page, token } = await signIn(product));
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe('website settings tabs in a real browser', () => {
  it('base: loose block mode and 90 days of snapshots stay after a reload; a retention of 0 and framing with no domain are refused', async () => {
    await openTab('base');
    expect(await selectText('web-base-block_mode')).toBe('严格');
    await choose('web-base-block_mode', 'web-base-block_mode-loose');
    await page.fill(field('web-base-snapshot.retention_days'), '0');
    await page.click(id('web-base-save'));
    await expect.poll(() => page.textContent(id('web-base-error-snapshot.retention_days')), ui).toBe('快照保留天数须为 1-3650 的整数');
    expect((await stored('base')).block_mode).toBe('strict');

    await page.fill(field('web-base-snapshot.retention_days'), '90');
    await choose('web-base-frame_options.mode', 'web-base-frame_options.mode-allow_from');
    await page.click(id('web-base-save'));
    await expect.poll(() => page.textContent(id('web-base-error-frame_options.domains')), ui).toBe('选择“允许指定域名”时请至少填写一个域名');
    await page.fill(box('web-base-frame_options.domains'), 'partner.example.com');
    await save('base');
    expect(await stored('base')).toMatchObject({ block_mode: 'loose', snapshot: { retention_days: 90 }, frame_options: { mode: 'allow_from', domains: ['partner.example.com'] } });

    await openTab('base');
    expect(await selectText('web-base-block_mode')).toBe('宽松');
    expect(await page.inputValue(field('web-base-snapshot.retention_days'))).toBe('90');
    expect(await page.inputValue(box('web-base-frame_options.domains'))).toBe('partner.example.com');

    await inEnglish(page, async () => {
      await page.waitForSelector(id('web-base-save'));
      await expect.poll(() => selectText('web-base-block_mode'), ui).toBe('Loose');
      for (const title of ['Block mode', 'Attack snapshots', 'Alerts', 'Cookie attributes', 'X-Frame-Options']) expect(await page.textContent(id('web-base-page'))).toContain(title);
      await page.fill(field('web-base-snapshot.retention_days'), '4000');
      await page.click(id('web-base-save'));
      await expect.poll(() => page.textContent(id('web-base-error-snapshot.retention_days')), ui).toBe('Snapshot retention is a whole number of days from 1 to 3650');
    });
    expect((await stored('base')).snapshot.retention_days).toBe(90);
  });

  it('request: denied methods and a URL limit stay after a reload; a bad method is named by its entry in both languages', async () => {
    await openTab('request');
    await page.fill(box('web-request-denied_methods'), 'TRACE, TRACK, G@T');
    await page.click(id('web-request-save'));
    await expect.poll(() => page.textContent(id('web-request-error-denied_methods')), ui).toBe('第 3 项：请求方式格式有误，例如 GET、PUT、TRACE');
    await inEnglish(page, async () => {
      await page.waitForSelector(box('web-request-denied_methods'));
      await page.fill(box('web-request-denied_methods'), 'TRACE G@T');
      await page.click(id('web-request-save'));
      await expect.poll(() => page.textContent(id('web-request-error-denied_methods')), ui).toBe('Entry 2: Not a valid request method, such as GET, PUT or TRACE');
      expect(await page.textContent(id('web-request-page'))).toContain('HTTP header limits');
    });
    expect((await stored('request')).denied_methods).toEqual(['TRACE', 'TRACK', 'CONNECT']);

    await page.waitForSelector(box('web-request-denied_methods'));
    await page.fill(box('web-request-denied_methods'), 'TRACE, TRACK');
    await page.fill(field('web-request-limits.url_bytes'), '4096');
    await save('request');
    expect(await stored('request')).toMatchObject({ denied_methods: ['TRACE', 'TRACK'], limits: { url_bytes: 4096 } });
    await openTab('request');
    expect(await page.inputValue(box('web-request-denied_methods'))).toBe('TRACE, TRACK');
    expect(await page.inputValue(field('web-request-limits.url_bytes'))).toBe('4096');
  });

  it('protect: the authorization password must be 8-50 bytes, not only digits, not only letters; a good one is kept as a hash only', async () => {
    await openTab('protect');
    expect(await page.textContent(id('web-protect-password-rule'))).toContain('8 到 50 个字节');
    const password = field('web-protect-authorization.password');
    const error = id('web-protect-error-authorization.password');
    await page.click(id('web-protect-authorization.enabled'));
    await page.fill(field('web-protect-cc.per_minute'), '240');
    // Only digits, only letters, too short in bytes (three Chinese characters and a digit are 10 bytes: fine), too long.
    for (const bad of ['12345678', 'abcdefghXY', 'ab12', '密码1', 'a1'.repeat(26)]) {
      await page.fill(password, bad);
      await page.click(id('web-protect-save'));
      await expect.poll(() => page.textContent(error), { timeout: 5_000 }).toBe('授权密码须为 8-50 字节，不能为纯数字或纯字母，区分大小写');
    }
    expect((await stored('protect')).authorization).toEqual({ enabled: false, validity_minutes: 60, password_set: false });
    await inEnglish(page, async () => {
      await page.waitForSelector(password);
      await page.click(id('web-protect-authorization.enabled'));
      await page.fill(password, '87654321');
      await page.click(id('web-protect-save'));
      await expect.poll(() => page.textContent(error), ui).toBe('The authorization password is 8-50 bytes, not only digits or only letters, and case-sensitive');
      expect(await page.textContent(id('web-protect-password-rule'))).toContain('8 to 50 bytes');
    });

    await page.waitForSelector(password);
    await page.click(id('web-protect-authorization.enabled'));
    await page.fill(field('web-protect-cc.per_minute'), '240');
    await page.fill(password, '密码ab');
    await save('protect');
    const saved = await stored('protect');
    expect(saved.cc.per_minute).toBe(240);
    expect(saved.authorization).toEqual({ enabled: true, validity_minutes: 60, password_set: true });
    expect(JSON.stringify(saved)).not.toContain('密码ab');

    await openTab('protect');
    expect(await page.inputValue(field('web-protect-cc.per_minute'))).toBe('240');
    expect(await page.inputValue(password)).toBe('');
    expect(await page.getAttribute(password, 'placeholder')).toBe('已设置密码；留空则保留');
    expect(await page.getAttribute(id('web-protect-authorization.enabled'), 'aria-checked')).toBe('true');
    // Saving with the box empty keeps the password.
    await page.fill(field('web-protect-authorization.validity_minutes'), '30');
    await save('protect');
    expect((await stored('protect')).authorization).toEqual({ enabled: true, validity_minutes: 30, password_set: true });
  }, long);

  it('sql: keyword libraries take a++b and a--b in block and record, x==y in filter, and refuse them where they mean nothing', async () => {
    await openTab('sql');
    expect(await page.textContent(id('web-sql-keywords-help'))).toContain('a++b');
    await page.click(id('web-sql-keywords.block.enabled'));
    await page.fill(box('web-sql-keywords.block.rules'), 'casino--casino royale review\nbad==worse');
    await page.click(id('web-sql-save'));
    await expect.poll(() => page.textContent(id('web-sql-error-keywords.block.rules')), ui).toMatch(/^第 2 项：关键字规则格式有误/);
    await page.fill(box('web-sql-keywords.block.rules'), 'casino--casino royale review\nunion++select++password');
    await page.fill(box('web-sql-keywords.filter.rules'), 'badword==good word\nx==y==z');
    await page.click(id('web-sql-save'));
    await expect.poll(() => page.textContent(id('web-sql-error-keywords.filter.rules')), ui).toMatch(/^第 2 项：关键字规则格式有误/);
    expect((await stored('sql')).keywords.block.rules).toEqual([]);

    await inEnglish(page, async () => {
      await page.waitForSelector(box('web-sql-keywords.record.rules'));
      await page.fill(box('web-sql-keywords.record.rules'), '++alone');
      await page.click(id('web-sql-save'));
      await expect.poll(() => page.textContent(id('web-sql-error-keywords.record.rules')), ui).toMatch(/^Entry 1: Keyword rule syntax/);
      expect(await page.textContent(id('web-sql-keywords-help'))).toContain('x==y (filter library only)');
    });

    await page.waitForSelector(box('web-sql-keywords.block.rules'));
    await page.click(id('web-sql-keywords.block.enabled'));
    await page.fill(box('web-sql-keywords.block.rules'), 'casino--casino royale review\nunion++select++password');
    await page.fill(box('web-sql-keywords.filter.rules'), 'badword==good word');
    await page.fill(box('web-sql-keywords.record.rules'), 'wget++http');
    await save('sql');
    const keywords = (await stored('sql')).keywords;
    expect(keywords.block).toEqual({ enabled: true, rules: ['casino--casino royale review', 'union++select++password'] });
    expect(keywords.filter.rules).toEqual(['badword==good word']);
    expect(keywords.record.rules).toEqual(['wget++http']);

    await openTab('sql');
    expect(await page.inputValue(box('web-sql-keywords.block.rules'))).toBe('casino--casino royale review\nunion++select++password');
    expect(await page.inputValue(box('web-sql-keywords.filter.rules'))).toBe('badword==good word');
    // "Reload the libraries" reads them from the console (sql_getkeywords) into the boxes.
    await page.fill(box('web-sql-keywords.record.rules'), 'typed but not saved');
    await page.click(id('web-sql-reload-keywords'));
    await expect.poll(() => page.inputValue(box('web-sql-keywords.record.rules')), ui).toBe('wget++http');
  });

  it('attack: a detector switched off and a header added stay after a reload; a header name with a space is refused', async () => {
    await openTab('attack');
    expect(await page.getAttribute(id('web-attack-kinds.xss'), 'aria-checked')).toBe('true');
    await page.click(id('web-attack-kinds.xss'));
    await page.fill(box('web-attack-headers'), 'user-agent\nreferer\nx-forwarded-for\nx api key');
    await page.click(id('web-attack-save'));
    await expect.poll(() => page.textContent(id('web-attack-error-headers')), ui).toBe('第 4 项：HTTP 头名称格式有误（* 表示全部）');
    expect((await stored('attack')).kinds.xss).toBe(true);
    await page.fill(box('web-attack-headers'), 'user-agent\nreferer\nx-forwarded-for\nx-api-key');
    await save('attack');
    expect(await stored('attack')).toMatchObject({ kinds: { xss: false, cmdi: true }, headers: ['user-agent', 'referer', 'x-forwarded-for', 'x-api-key'] });

    await openTab('attack');
    expect(await page.getAttribute(id('web-attack-kinds.xss'), 'aria-checked')).toBe('false');
    expect(await page.inputValue(box('web-attack-headers'))).toBe('user-agent\nreferer\nx-forwarded-for\nx-api-key');
    await inEnglish(page, async () => {
      await page.waitForSelector(id('web-attack-kinds.xss'));
      const text = await page.textContent(id('web-attack-page'));
      for (const title of ['Cross-site scripting (XSS)', 'Command injection', 'File inclusion', 'Headers inspected']) expect(text).toContain(title);
      await page.fill(box('web-attack-headers'), 'x api');
      await page.click(id('web-attack-save'));
      await expect.poll(() => page.textContent(id('web-attack-error-headers')), ui).toBe('Entry 1: Not a valid HTTP header name (* means all headers)');
    });
    expect((await stored('attack')).headers).toContain('x-api-key');
  });

  it('response: custom content with its status stays after a reload; empty content and a status of 99 are refused', async () => {
    await openTab('response');
    expect(await selectText('web-response-type')).toBe('标准错误');
    expect(await page.inputValue(field('web-response-status'))).toBe('403');
    await choose('web-response-type', 'web-response-type-custom');
    await page.waitForSelector(box('web-response-content'));
    await page.fill(field('web-response-status'), '99');
    await page.click(id('web-response-save'));
    await expect.poll(() => page.textContent(id('web-response-error-status')), ui).toBe('状态码须为 200-599 的整数');
    expect(await page.textContent(id('web-response-error-content'))).toBe('请输入自定义返回内容');
    expect((await stored('response')).type).toBe('standard');

    await page.fill(field('web-response-status'), '451');
    await page.fill(box('web-response-content'), '<h1>本站已拦截此请求</h1>');
    await save('response');
    expect(await stored('response')).toMatchObject({ type: 'custom', status: 451, content: '<h1>本站已拦截此请求</h1>' });

    await openTab('response');
    expect(await selectText('web-response-type')).toBe('自定义内容');
    expect(await page.inputValue(box('web-response-content'))).toBe('<h1>本站已拦截此请求</h1>');
    expect(await page.inputValue(field('web-response-status'))).toBe('451');
    await inEnglish(page, async () => {
      await page.waitForSelector(box('web-response-content'));
      await expect.poll(() => selectText('web-response-type'), ui).toBe('Custom content');
      await choose('web-response-type', 'web-response-type-redirect');
      await page.fill(field('web-response-redirect_url'), 'ftp://example.com/');
      await page.click(id('web-response-save'));
      await expect.poll(() => page.textContent(id('web-response-error-redirect_url')), ui).toBe('The jump address starts with http://, https:// or /');
    });
    expect((await stored('response')).type).toBe('custom');
  });
});
