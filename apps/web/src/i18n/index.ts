import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from '@rampart/contracts';
import enUS from '../locales/en-US.ts';
import zhCN from '../locales/zh-CN.ts';
import { getStoredLanguage } from '../storage/language.ts';

export const resources = {
  'zh-CN': { translation: zhCN },
  'en-US': { translation: enUS },
} as const;

/** Initialises i18next synchronously with the stored language (default zh-CN). Safe to call twice. */
export function initI18n(lang: Language = getStoredLanguage()) {
  if (!i18next.isInitialized) {
    // Screen readers and the browser's own UI follow the page language.
    i18next.on('languageChanged', (lng) => document.documentElement.setAttribute('lang', lng));
    void i18next.use(initReactI18next).init({
      resources,
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

export { i18next };
