import { ConfigProvider, Spin, theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DynamicPanels } from './Panels.tsx';
import { useDynamicData } from './useDynamicData.ts';

/** The hidden big-screen page (`/dynamic/style_1`): the same figures, dark, over the whole window (made for 1920x1080 wall displays). */
export function BigScreenPage() {
  const { t } = useTranslation();
  const { overview, connections, performance, settings } = useDynamicData();
  return (
    <ConfigProvider theme={{ algorithm: theme.darkAlgorithm, token: { fontSize: 16 } }}>
      <div
        data-testid="dynamic-big-screen"
        style={{ position: 'fixed', inset: 0, zIndex: 1000, overflow: 'auto', padding: 16, background: 'radial-gradient(circle at 50% 30%, #0b2a52, #030d1c 70%)' }}
      >
        <Typography.Title level={2} style={{ textAlign: 'center', color: '#e6f4ff', margin: '0 0 12px' }}>
          {t('page.dynamic_style_1')}
        </Typography.Title>
        {overview.data ? (
          <DynamicPanels dark data={{ overview: overview.data, connections: connections.data, performance: performance.data, settings: settings.data }} />
        ) : (
          <Spin />
        )}
      </div>
    </ConfigProvider>
  );
}
