import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from '@rampart/contracts';
import type { LocaleTexts } from '../locales/types.ts';
import { getStoredLanguage } from '../storage/language.ts';

/*
 * Each language's catalogue is a chunk of its own (the build splits the two-language parts, see
 * vite.config.ts): a browser fetches the texts of its language only, which keeps the sign-in page's
 * JavaScript small (issue 27).
 */
const catalogues: Record<Language, () => Promise<LocaleTexts>> = {
  'zh-CN': () => import('../locales/zh-CN.ts').then((m) => m.default),
  'en-US': () => import('../locales/en-US.ts').then((m) => m.default),
};

/**
 * Initialises i18next synchronously with `lang` and the catalogues given (tests pass both; the app
 * passes the one `startI18n` loaded). Safe to call twice.
 */
export function initI18n(lang: Language, texts: Partial<Record<Language, LocaleTexts>>) {
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

/** The app's start: the stored language's catalogue, then i18next. */
export async function startI18n(lang: Language = getStoredLanguage()) {
  return initI18n(lang, { [lang]: await catalogues[lang]() });
}

/** Shows the console in `lang`: at once when its catalogue is here, else once it has loaded. */
export function changeLanguage(lang: Language): void {
  if (i18next.hasResourceBundle(lang, 'translation')) {
    void i18next.changeLanguage(lang);
    return;
  }
  void catalogues[lang]().then(
    (texts) => {
      i18next.addResourceBundle(lang, 'translation', texts);
      return i18next.changeLanguage(lang);
    },
    // The chunk could not be fetched: the stored choice applies at the next load.
    () => undefined,
  );
}

export { i18next };
