import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { changeLanguage, hasPageTexts, i18next, loadPageTexts } from '../src/i18n/index.ts';
import { usePageTexts } from '../src/i18n/usePageTexts.ts';
import enUS from '../src/locales/en-US.ts';
import zhCN from '../src/locales/zh-CN.ts';
import enUSPages from '../src/locales/en-US.pages.ts';
import zhCNPages from '../src/locales/zh-CN.pages.ts';

/*
 * The app starts with a language's core texts only and fetches the console's page texts after sign-in
 * (issue 27: the sign-in page stays small). The shared test setup gives i18next both halves of both
 * languages; these tests take the page half away to see it come back through the real dynamic import.
 */
function coreOnly() {
  for (const [lang, core] of [['en-US', enUS], ['zh-CN', zhCN]] as const) {
    i18next.removeResourceBundle(lang, 'translation');
    i18next.addResourceBundle(lang, 'translation', core);
  }
}

afterEach(async () => {
  for (const [lang, core, pages] of [['en-US', enUS, enUSPages], ['zh-CN', zhCN, zhCNPages]] as const) {
    i18next.removeResourceBundle(lang, 'translation');
    i18next.addResourceBundle(lang, 'translation', { ...core, ...pages });
  }
  await i18next.changeLanguage('en-US');
});

function Probe() {
  const state = usePageTexts();
  return <p>{state === 'ready' ? i18next.t('wizard.open') : state}</p>;
}

describe('page texts after sign-in', () => {
  it('loads the page half of a language into i18next, keeping the core half', async () => {
    coreOnly();
    expect(hasPageTexts('en-US')).toBe(false);
    await loadPageTexts('en-US');
    expect(hasPageTexts('en-US')).toBe(true);
    expect(i18next.t('wizard.open', { lng: 'en-US' })).toBe('Quick configuration wizard');
    expect(i18next.t('common.ok', { lng: 'en-US' })).toBe('OK');
    expect(hasPageTexts('zh-CN')).toBe(false);
  });

  it('shows loading until the page texts are in, then the page text', async () => {
    coreOnly();
    render(<Probe />);
    expect(screen.getByText('loading')).toBeTruthy();
    expect(await screen.findByText('Quick configuration wizard')).toBeTruthy();
  });

  it('switching language on a signed-in console brings the other language page texts first', async () => {
    coreOnly();
    await loadPageTexts('en-US');
    changeLanguage('zh-CN');
    await expect.poll(() => i18next.language).toBe('zh-CN');
    // The switch waited for the page half: no key or fallback text is shown in between.
    expect(hasPageTexts('zh-CN')).toBe(true);
    expect(i18next.t('wizard.open')).toBe('快速配置向导');
  });
});
