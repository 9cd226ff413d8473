import { useLayoutEffect, useRef, useState } from 'react';
// The ESM build: the CommonJS one's default export arrives as a module object in the production bundle.
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { BarChart, EffectScatterChart, LineChart, LinesChart, MapChart } from 'echarts/charts';
import { GeoComponent, GridComponent, LegendComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import type { DynamicOverview, PerformanceSeries } from '@rampart/contracts';
import world from '@surbowl/world-geo-json-zh/world.zh.json';
import { countryCenters, type GeoJsonWorld } from './geo.ts';

/*
 * The dashboard's charts: ECharts 6 (modular, SVG renderer: one code path for browsers and jsdom)
 * and the world map (GeoJSON with ISO codes). This module is loaded only by the dynamic pages.
 */
echarts.use([LineChart, BarChart, MapChart, LinesChart, EffectScatterChart, GeoComponent, GridComponent, TooltipComponent, LegendComponent, VisualMapComponent, SVGRenderer]);
const worldMap = world as unknown as GeoJsonWorld;
echarts.registerMap('world', worldMap as unknown as Parameters<typeof echarts.registerMap>[1]);
const centers = countryCenters(worldMap);

export interface Palette {
  text: string;
  line: string;
  area: string;
  land: string;
  border: string;
}
export const lightPalette: Palette = { text: '#555', line: '#1677ff', area: 'rgba(22,119,255,0.15)', land: '#e6ecf5', border: '#aab4c3' };
export const darkPalette: Palette = { text: '#c9d6ea', line: '#36cfc9', area: 'rgba(54,207,201,0.2)', land: '#12335a', border: '#2b5d92' };

/** A chart's height in pixels, or '100%': the height of the box it is put in (the big screen's cells). */
export type ChartHeight = number | '100%';
/** The height a chart draws at when its box has no layout (see Chart). */
const noLayoutHeight = 360;

/**
 * One chart. A container without a layout width (hidden, or a DOM without layout) would give the
 * map a zero-size view that ECharts cannot invert: such a container draws at a fixed size instead.
 */
export function Chart({ option, height, testId }: { option: object; height: ChartHeight; testId: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => setWidth(box.current?.clientWidth ? 0 : 600), []);
  const fixed = width ? { width, height: typeof height === 'number' ? height : noLayoutHeight } : {};
  return (
    <div data-testid={testId} ref={box} style={height === '100%' ? { height } : undefined}>
      {width !== null && <ReactEChartsCore echarts={echarts} option={option} notMerge opts={{ renderer: 'svg', ...fixed }} style={{ height }} />}
    </div>
  );
}
const chart = (option: object, height: ChartHeight, testId: string) => <Chart option={option} height={height} testId={testId} />;

export function TrendChart({ trend, name, palette = lightPalette, height = 220 }: { trend: DynamicOverview['trend']; name: string; palette?: Palette; height?: ChartHeight | undefined }) {
  return chart({
    tooltip: { trigger: 'axis' },
    grid: { left: 40, right: 16, top: 16, bottom: 28 },
    xAxis: { type: 'category', data: trend.map((d) => d.day.slice(5)), axisLabel: { color: palette.text } },
    yAxis: { type: 'value', minInterval: 1, axisLabel: { color: palette.text } },
    series: [{ name, type: 'line', smooth: true, data: trend.map((d) => d.count), lineStyle: { color: palette.line }, itemStyle: { color: palette.line }, areaStyle: { color: palette.area } }],
  }, height, 'dynamic-trend-chart');
}

export function PerformanceChart({ series, labels, palette = lightPalette, height = 220 }: { series: PerformanceSeries | undefined; labels: { cpu: string; memory: string }; palette?: Palette; height?: ChartHeight | undefined }) {
  const points = series?.points ?? [];
  return chart({
    tooltip: { trigger: 'axis' },
    legend: { textStyle: { color: palette.text } },
    grid: { left: 40, right: 16, top: 32, bottom: 28 },
    xAxis: { type: 'category', data: points.map((p) => new Date(p.at).toTimeString().slice(0, 5)), axisLabel: { color: palette.text } },
    yAxis: { type: 'value', min: 0, max: 100, axisLabel: { color: palette.text } },
    series: [
      { name: labels.cpu, type: 'line', showSymbol: false, data: points.map((p) => Math.round(p.cpu)) },
      { name: labels.memory, type: 'line', showSymbol: false, data: points.map((p) => Math.round(p.memory)) },
    ],
  }, height, 'dynamic-performance-chart');
}

/** Attack sources by country with lines to the server's location; internal and unknown sources have no place on the map. */
export function AttackMap({ areas, target, areaName, palette = lightPalette, height = 360 }: {
  areas: DynamicOverview['areas'];
  target: string;
  areaName: (area: string) => string;
  palette?: Palette;
  height?: ChartHeight | undefined;
}) {
  const placed = areas.filter((a) => centers.has(a.area));
  const to = centers.get(target);
  const max = Math.max(1, ...placed.map((a) => a.count));
  return chart({
    tooltip: { trigger: 'item', formatter: (p: { name?: string; value?: unknown }) => `${areaName(p.name ?? '')}: ${Array.isArray(p.value) ? String(p.value[2] ?? '') : String(p.value ?? 0)}` },
    geo: { map: 'world', nameProperty: 'iso_a2', roam: true, itemStyle: { areaColor: palette.land, borderColor: palette.border }, emphasis: { disabled: true } },
    series: [
      {
        type: 'effectScatter', coordinateSystem: 'geo', zlevel: 2,
        data: placed.map((a) => ({ name: a.area, value: [...centers.get(a.area)!, a.count] })),
        symbolSize: (v: number[]) => 6 + 14 * ((v[2] ?? 0) / max), itemStyle: { color: '#f5222d' },
      },
      ...(to
        ? [
            {
              type: 'lines', coordinateSystem: 'geo', zlevel: 1,
              effect: { show: true, period: 4, trailLength: 0.2, symbolSize: 4 },
              lineStyle: { color: '#ff7a45', width: 1, opacity: 0.6, curveness: 0.25 },
              data: placed.filter((a) => a.area !== target).map((a) => ({ coords: [centers.get(a.area)!, to] })),
            },
            { type: 'effectScatter', coordinateSystem: 'geo', zlevel: 3, data: [{ name: target, value: [...to, 0] }], symbolSize: 10, itemStyle: { color: '#52c41a' } },
          ]
        : []),
    ],
  }, height, 'dynamic-map-chart');
}
