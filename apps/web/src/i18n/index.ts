import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from '@rampart/contracts';
import type { CoreTexts, PageTexts } from '../locales/types.ts';
import { getStoredLanguage } from '../storage/language.ts';

/*
 * Each language's catalogue is two chunks of its own (the build splits the two-language parts, see
 * vite.config.ts): a browser fetches the texts of its language only, and the sign-in page only the
 * core half — the console's page texts come after sign-in (`loadPageTexts`), which keeps the
 * sign-in page's JavaScript small (issue 27).
 */
const coreCatalogues: Record<Language, () => Promise<CoreTexts>> = {
  'zh-CN': () => import('../locales/zh-CN.ts').then((m) => m.default),
  'en-US': () => import('../locales/en-US.ts').then((m) => m.default),
};
const pageCatalogues: Record<Language, () => Promise<PageTexts>> = {
  'zh-CN': () => import('../locales/zh-CN.pages.ts').then((m) => m.default),
  'en-US': () => import('../locales/en-US.pages.ts').then((m) => m.default),
};

/** Set once the console's pages are in use: a language switch then brings the page texts too. */
let pageTextsWanted = false;

/** One top-level key of the page half: present once a language's page texts are in i18next. */
const pageHalfKey: keyof PageTexts = 'wizard';

/** True once `lang`'s page texts are in i18next (the app loaded them, or a test passed them whole). */
export function hasPageTexts(lang: Language): boolean {
  return i18next.getResource(lang, 'translation', pageHalfKey) !== undefined;
}

/** Adds `lang`'s page texts to i18next (the module system fetches each chunk once). */
export function loadPageTexts(lang: Language): Promise<void> {
  pageTextsWanted = true;
  if (hasPageTexts(lang)) return Promise.resolve();
  return pageCatalogues[lang]().then((texts) => {
    i18next.addResourceBundle(lang, 'translation', texts, true, false);
  });
}

/**
 * Initialises i18next synchronously with `lang` and the catalogues given (tests pass both languages
 * whole, core and page texts; the app passes the core half `startI18n` loaded). Safe to call twice.
 */
export function initI18n(lang: Language, texts: Partial<Record<Language, CoreTexts>>) {
  if (!i18next.isInitialized) {
    // Screen readers and the browser's own UI follow the page language.
    i18next.on('languageChanged', (lng) => document.documentElement.setAttribute('lang', lng));
    void i18next.use(initReactI18next).init({
      resources: Object.fromEntries(Object.entries(texts).map(([lng, translation]) => [lng, { translation }])),
      lng: lang,
      fallbackLng: 'zh-CN',
      initAsync: false,
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  } else if (i18next.language !== lang) {
    void i18next.changeLanguage(lang);
  }
  return i18next;
}

/** The app's start: the stored language's core catalogue, then i18next. */
export async function startI18n(lang: Language = getStoredLanguage()) {
  return initI18n(lang, { [lang]: await coreCatalogues[lang]() });
}

/**
 * Shows the console in `lang`: at once when its texts are here, else once they have loaded — the
 * page texts too when the console's pages are in use (some language's page texts were loaded).
 */
export function changeLanguage(lang: Language): void {
  const needPages = pageTextsWanted || hasPageTexts(i18next.language as Language);
  if (i18next.hasResourceBundle(lang, 'translation') && (!needPages || hasPageTexts(lang))) {
    // Everything is here: switch now, in the same turn (the response that asked for it is handled after).
    void i18next.changeLanguage(lang);
    return;
  }
  const core = i18next.hasResourceBundle(lang, 'translation')
    ? Promise.resolve()
    : coreCatalogues[lang]().then((texts) => { i18next.addResourceBundle(lang, 'translation', texts, true, false); });
  const ready = needPages ? core.then(() => loadPageTexts(lang)) : core;
  void ready.then(
    () => i18next.changeLanguage(lang),
    // A chunk could not be fetched: the stored choice applies at the next load.
    () => undefined,
  );
}

export { i18next };
