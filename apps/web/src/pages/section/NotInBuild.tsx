import { Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * What every module tab says in this build: plainly that the module is not here yet, and, where this
 * build has a part that covers some of it, what to use meanwhile (`module_page.meanwhile.<section>_<tab>`).
 * No invented data.
 */
export function NotInBuild({ nameKey, tab }: { nameKey: string; tab?: string }) {
  const { t, i18n } = useTranslation();
  const meanwhileKey = `module_page.meanwhile.${tab ?? ''}`;
  return (
    <Result
      status="info"
      title={t('module_page.not_in_build_title')}
      subTitle={t('module_page.not_in_build', { name: t(nameKey) })}
      data-testid="not-in-build"
      extra={tab && i18n.exists(meanwhileKey) ? <Typography.Text data-testid="not-in-build-meanwhile">{t(meanwhileKey)}</Typography.Text> : undefined}
    />
  );
}
