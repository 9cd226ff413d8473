import { useTranslation } from 'react-i18next';
import { areaName, eventModuleNames, internalArea, isChinaProvinceCode } from '@rampart/contracts';

/** Words for areas, modules and kinds in the reader's language. */
export function useDynamicNames() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  let regions: Intl.DisplayNames | null = null;
  try {
    regions = new Intl.DisplayNames([lang], { type: 'region' });
  } catch {
    regions = null;
  }
  const area = (code: string): string => {
    if (code === internalArea) return t('dynamic.internal');
    if (code === '') return t('dynamic.unknown');
    // Chinese addresses carry their province (CN-GD): Intl knows countries only.
    if (isChinaProvinceCode(code)) return areaName(code, lang);
    try {
      return regions?.of(code) ?? code;
    } catch {
      return code;
    }
  };
  const module = (key: string): string => eventModuleNames[key]?.[lang] ?? key;
  const kind = (key: string): string => {
    const textKey = `dynamic.kinds.${key.replace('.', '_')}`;
    return i18n.exists(textKey) ? t(textKey) : key;
  };
  return { area, module, kind };
}
