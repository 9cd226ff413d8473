import { FullscreenOutlined } from '@ant-design/icons';
import { Button, Flex, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LoadError } from './LoadError.tsx';
import { DynamicPanels } from './Panels.tsx';
import { SettingsCard } from './SettingsCard.tsx';
import { useDynamicData } from './useDynamicData.ts';

/** Situational awareness (`/dynamic/index`): counts, trend, map, latest attacks, report, sources, events, connections, performance. */
export function DynamicPage() {
  const { t } = useTranslation();
  const { overview, connections, performance, settings, retry } = useDynamicData();
  const failed = overview.isError ? <LoadError error={overview.error} retrying={overview.isFetching} onRetry={retry} /> : null;
  if (!overview.data) return failed ?? <Spin />;
  return (
    <Flex vertical gap={12} data-testid="dynamic-page">
      {failed}
      <Flex justify="flex-end">
        <Link to="/dynamic/style_1">
          <Button icon={<FullscreenOutlined />} data-testid="dynamic-big-screen-link">{t('dynamic.big_screen')}</Button>
        </Link>
      </Flex>
      <DynamicPanels
        data={{ overview: overview.data, connections: connections.data, performance: performance.data, settings: settings.data }}
        settingsCard={settings.data ? <SettingsCard saved={settings.data} autoArea={overview.data.server_area} /> : undefined}
      />
    </Flex>
  );
}
