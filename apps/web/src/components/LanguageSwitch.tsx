import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { languages, type Language } from '@rampart/contracts';
import { saveLanguage } from '../api/endpoints.ts';
import { getStoredLanguage, storeLanguage } from '../storage/language.ts';
import { hasToken } from '../storage/token.ts';
import { reloadPage } from '../utils/reload.ts';

/** Stores the language, tells the server when signed in (its messages follow it), then reloads. */
export async function switchLanguage(lang: Language): Promise<void> {
  storeLanguage(lang);
  if (hasToken()) {
    try {
      await saveLanguage(lang);
    } catch {
      // The stored choice still applies to this browser; the API client has told the user.
    }
  }
  reloadPage();
}

export function LanguageSwitch() {
  const { t } = useTranslation();
  return (
    <Select<Language>
      data-testid="lang-switch"
      aria-label={t('header.language')}
      size="small"
      variant="borderless"
      value={getStoredLanguage()}
      onChange={(lang) => void switchLanguage(lang)}
      options={languages.map((lang) => ({ value: lang, label: t(`language.${lang}`) }))}
      popupMatchSelectWidth={false}
    />
  );
}
