import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { sections } from '@rampart/contracts';
import { helpBooks } from '../src/pages/help/locales/helpTexts.ts';
import { renderApp } from './helpers/renderApp.tsx';
import { signedInAs } from './helpers/signedIn.ts';

describe('help for every section, in both languages (issue 27)', () => {
  it('has help for each section of the menu in both books, kept in step (same settings and recovery lines)', () => {
    for (const section of sections) {
      const zh = helpBooks['zh-CN'][section.key];
      const en = helpBooks['en-US'][section.key];
      expect(zh?.intro, section.key).toMatch(/[\u4e00-\u9fff]/);
      expect(en?.intro, section.key).toMatch(/^[\x20-\x7e\u2019\u2026]+$/);
      expect(zh!.items.length, section.key).toBe(en!.items.length);
      expect(zh!.recover.length, section.key).toBe(en!.recover.length);
    }
  });

  it('opens from the page header with the section\'s help, and closes (English)', async () => {
    signedInAs('admin');
    renderApp('/firewall/rule_in');
    fireEvent.click(await screen.findByTestId('help-open'));
    const help = await screen.findByTestId('help-firewall');
    expect(help.textContent).toContain('The host firewall runs in the kernel');
    expect(help.textContent).toContain('npx rampart firewall off');
    expect(screen.getByText('Help: Firewall')).toBeTruthy();
    // (Esc is checked in Chromium, tests/e2e/console.e2e.test.ts: jsdom does not deliver it to the drawer's portal.)
    fireEvent.click(document.querySelector('.ant-drawer-close')!);
    await waitFor(() => expect(document.querySelector('.ant-drawer-open')).toBeNull());
  });

  it('speaks Chinese on the home page', async () => {
    localStorage.setItem('rampart.lang', 'zh-CN');
    await act(() => i18next.changeLanguage('zh-CN'));
    signedInAs('admin');
    renderApp('/dashboard');
    fireEvent.click(await screen.findByTestId('help-open'));
    const help = await screen.findByTestId('help-dashboard');
    expect(help.textContent).toContain('首页汇总服务器与各模块的状态');
    expect(screen.getByText('如何恢复')).toBeTruthy();
  });
});
