import { useTranslation } from 'react-i18next';
import { defaultLanguage, type Language } from '@rampart/contracts';
import { isLanguage } from '../storage/language.ts';

/** The UI language as a contracts Language (for catalogue names and `translate`). */
export function useLanguage(): Language {
  const { i18n } = useTranslation();
  return isLanguage(i18n.language) ? i18n.language : defaultLanguage;
}
