import { Flex, Segmented, Spin, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DynamicOverview } from '@rampart/contracts';
import { getStoredMapView, storeMapView, type MapView } from '../../storage/mapView.ts';
import type { ChartHeight } from './Charts.tsx';
import { chinaCounts, worldAreaOf, worldCounts } from './china-regions.ts';

/* Each map is its own chunk with its data, loaded when shown: the sign-in and dashboard chunks carry neither. */
const WorldMap = lazy(() => import('./Charts.tsx').then((m) => ({ default: (p: MapProps) => <m.AttackMap {...p} areas={worldCounts(p.areas)} target={worldAreaOf(p.target)} palette={p.dark ? m.darkPalette : m.lightPalette} /> })));
const ChinaMap = lazy(() => Promise.all([import('./Charts.tsx'), import('./ChinaMap.tsx')]).then(([c, m]) => ({ default: (p: MapProps) => <m.ChinaAttackMap {...p} palette={p.dark ? c.darkPalette : c.lightPalette} /> })));

interface MapProps {
  dark: boolean;
  areas: DynamicOverview['areas'];
  target: string;
  areaName: (area: string) => string;
  height: ChartHeight | undefined;
}

/** The attack map panel's body: World / China (the choice kept in this browser), the map, and what the map cannot place. */
export function MapPanelBody({ fill, ...map }: MapProps & { fill: boolean }) {
  const { t } = useTranslation();
  const [view, setView] = useState<MapView>(getStoredMapView);
  const choose = (next: MapView) => {
    setView(next);
    storeMapView(next);
  };
  const china = view === 'china' ? chinaCounts(map.areas) : null;
  return (
    <Flex vertical gap={4} style={fill ? { height: '100%' } : undefined}>
      <Segmented<MapView>
        size="small"
        style={{ alignSelf: 'flex-start' }}
        data-testid="dynamic-map-view"
        value={view}
        onChange={choose}
        options={[{ label: t('dynamic.map_world'), value: 'world' }, { label: t('dynamic.map_china'), value: 'china' }]}
      />
      <div style={fill ? { flex: 1, minHeight: 0 } : undefined}>
        <Suspense fallback={<Spin />}>{china ? <ChinaMap {...map} /> : <WorldMap {...map} />}</Suspense>
      </div>
      {china && (
        <Typography.Text type="secondary" data-testid="dynamic-map-outside">
          {t('dynamic.outside_china', { count: china.outside })}
          {china.unplaced > 0 && ` · ${t('dynamic.china_unplaced', { count: china.unplaced })}`}
        </Typography.Text>
      )}
      <Typography.Text type="secondary">
        {t('dynamic.location')}: {map.target ? map.areaName(map.target) : t('dynamic.unknown')}
      </Typography.Text>
    </Flex>
  );
}
