import { ConfigProvider, Spin, theme, Typography } from 'antd';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from './LoadError.tsx';
import { Panel, usePanelParts, type PanelData, type PanelKey } from './Panels.tsx';
import { useDynamicData } from './useDynamicData.ts';

/*
 * A wall display shows one screen and nobody scrolls it: the panels sit in a grid that fills the
 * window exactly (made for 1920x1080), each panel cutting what does not fit its cell.
 */
const screenStyle: CSSProperties = {
  position: 'fixed', inset: 0, zIndex: 1000, boxSizing: 'border-box', overflow: 'hidden', padding: 16,
  display: 'grid', gap: 12,
  gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 2fr) minmax(0, 1fr)',
  gridTemplateRows: 'auto 132px repeat(3, minmax(0, 1fr))',
  gridTemplateAreas: '"title title title" "trend counts latest" "trend map latest" "report map ips" "security performance connections"',
  background: 'radial-gradient(circle at 50% 30%, #0b2a52, #030d1c 70%)',
};
const staleErrorStyle: CSSProperties = { position: 'absolute', top: 16, left: '50%', transform: 'translateX(-50%)', zIndex: 1, maxWidth: 720 };
const cells: readonly PanelKey[] = ['trend', 'latest', 'map', 'report', 'ips', 'security', 'performance', 'connections'];

function BigScreenGrid({ data }: { data: PanelData }) {
  const parts = usePanelParts(data, { dark: true, fill: true });
  const panel = (key: PanelKey) => (
    <Panel dark fill title={parts[key].title} testId={parts[key].testId}>
      {parts[key].body}
    </Panel>
  );
  return (
    <>
      <div style={{ gridArea: 'counts', display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: 12, minHeight: 0 }}>
        {(['today', 'yesterday', 'total'] as const).map((key) => <div key={key} style={{ minHeight: 0 }}>{panel(key)}</div>)}
      </div>
      {cells.map((key) => <div key={key} style={{ gridArea: key, minHeight: 0 }}>{panel(key)}</div>)}
    </>
  );
}

/** The hidden big-screen page (`/dynamic/style_1`): the same figures, dark, over the whole window (made for 1920x1080 wall displays). */
export function BigScreenPage() {
  const { t } = useTranslation();
  const { overview, connections, performance, settings, retry } = useDynamicData();
  // Stale figures stay up under the error: a wall display shows what it last knew, and says so.
  const failed = overview.isError ? <LoadError error={overview.error} retrying={overview.isFetching} onRetry={retry} style={overview.data ? staleErrorStyle : { gridArea: 'map', alignSelf: 'center' }} /> : null;
  return (
    <ConfigProvider theme={{ algorithm: theme.darkAlgorithm, token: { fontSize: 16 } }}>
      <div data-testid="dynamic-big-screen" style={screenStyle}>
        <Typography.Title level={2} style={{ gridArea: 'title', textAlign: 'center', color: '#e6f4ff', margin: 0 }}>
          {t('page.dynamic_style_1')}
        </Typography.Title>
        {failed}
        {overview.data ? (
          <BigScreenGrid data={{ overview: overview.data, connections: connections.data, performance: performance.data, settings: settings.data }} />
        ) : (
          !failed && <Spin style={{ gridArea: 'map' }} />
        )}
      </div>
    </ConfigProvider>
  );
}
