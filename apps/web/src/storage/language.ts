import { defaultLanguage, languages, type Language } from '@rampart/contracts';
import { storageKeys } from './keys.ts';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

export function getStoredLanguage(): Language {
  const stored = localStorage.getItem(storageKeys.language);
  return isLanguage(stored) ? stored : defaultLanguage;
}

export function storeLanguage(lang: Language): void {
  localStorage.setItem(storageKeys.language, lang);
}
