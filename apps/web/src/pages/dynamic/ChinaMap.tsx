import * as echarts from 'echarts/core';
import type { DynamicOverview } from '@rampart/contracts';
import { Chart, lightPalette, type ChartHeight, type Palette } from './Charts.tsx';
import { chinaCenters, chinaMap } from './china-map-data.ts';
import { chinaCounts, chinaMapRegions, chinaProvinceOf } from './china-regions.ts';

/*
 * The China attack map: its own chunk, loaded when the reader picks China, so the map data costs
 * nothing to the world view. Registered as 'china': ECharts then draws the South China Sea inset.
 */
echarts.registerMap('china', chinaMap as unknown as Parameters<typeof echarts.registerMap>[1]);

/** Attack sources by province with lines to the server's province; the server outside China (or its province unknown) gets no lines. */
export function ChinaAttackMap({ areas, target, areaName, palette = lightPalette, height = 360 }: {
  areas: DynamicOverview['areas'];
  target: string;
  areaName: (area: string) => string;
  palette?: Palette;
  height?: ChartHeight | undefined;
}) {
  const placed = chinaCounts(areas).provinces.filter((p) => chinaCenters.has(p.region));
  const home = chinaProvinceOf(target);
  const to = home !== null && home !== 'china' ? chinaCenters.get(chinaMapRegions[home]) : undefined;
  const max = Math.max(1, ...placed.map((p) => p.count));
  const at = (region: string) => [...chinaCenters.get(region)!];
  return (
    <Chart
      testId="dynamic-china-map-chart"
      height={height}
      option={{
        tooltip: { trigger: 'item', formatter: (p: { name?: string; value?: unknown }) => `${areaName(p.name ?? '')}: ${Array.isArray(p.value) ? String(p.value[2] ?? '') : ''}` },
        geo: { map: 'china', roam: true, itemStyle: { areaColor: palette.land, borderColor: palette.border }, emphasis: { disabled: true }, tooltip: { show: false } },
        series: [
          {
            type: 'effectScatter', coordinateSystem: 'geo', zlevel: 2,
            data: placed.map((p) => ({ name: p.code, value: [...at(p.region), p.count] })),
            symbolSize: (v: number[]) => 6 + 14 * ((v[2] ?? 0) / max), itemStyle: { color: '#f5222d' },
          },
          ...(to && home !== null && home !== 'china'
            ? [
                {
                  type: 'lines', coordinateSystem: 'geo', zlevel: 1,
                  effect: { show: true, period: 4, trailLength: 0.2, symbolSize: 4 },
                  lineStyle: { color: '#ff7a45', width: 1, opacity: 0.6, curveness: 0.25 },
                  data: placed.filter((p) => p.code !== home).map((p) => ({ coords: [at(p.region), [...to]] })),
                },
                { type: 'effectScatter', coordinateSystem: 'geo', zlevel: 3, data: [{ name: home, value: [...to, 0] }], symbolSize: 10, itemStyle: { color: '#52c41a' } },
              ]
            : []),
        ],
      }}
    />
  );
}
