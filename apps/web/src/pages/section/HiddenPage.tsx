import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { NotInBuild } from './NotInBuild.tsx';

/** A page reachable by path only (/dynamic/style_1). */
export function HiddenPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <Card>
      <Typography.Title level={3}>{t(titleKey)}</Typography.Title>
      <NotInBuild nameKey={titleKey} />
    </Card>
  );
}
