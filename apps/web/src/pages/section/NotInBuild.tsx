import { Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** What every module tab says in this build: plainly that the module is not here yet. No invented data. */
export function NotInBuild({ nameKey }: { nameKey: string }) {
  const { t } = useTranslation();
  return (
    <Result
      status="info"
      title={t('module_page.not_in_build_title')}
      subTitle={t('module_page.not_in_build', { name: t(nameKey) })}
      data-testid="not-in-build"
    />
  );
}
