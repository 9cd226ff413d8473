/* What the website module's browser tests share: multi-line boxes, the answer dialog, opening a tab afresh. */
import type { Page } from 'playwright-core';
import { id } from './browser-session.ts';

/** Like `field`, for multi-line boxes. */
export const box = (testId: string) => `textarea${id(testId)}, ${id(testId)} textarea`;

/** The success or warning dialog the API client shows after a call. */
export const resultDialog = '.ant-modal-confirm-content';

/**
 * Opens `/website/<tab>` with a full load (a hash-only change would keep the page's cached answers,
 * so what shows must come from the console) and waits for `ready` (a test id).
 */
export async function openWebsiteTab(page: Page, base: string, tab: string, ready: string): Promise<void> {
  const url = `${base}/#/website/${tab}`;
  if (page.url() === url) await page.reload();
  else await page.goto(url);
  await page.waitForSelector(id(ready));
}
