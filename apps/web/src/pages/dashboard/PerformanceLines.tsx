// The ES module build: the CommonJS one (lib/core) reaches the production bundle as an object, not a component.
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import type { PerformanceSeries } from '@rampart/contracts';
import { formatSpeed } from '../../utils/format.ts';

/* The home page's host performance chart; its own module so ECharts loads only when the chart shows. */
echarts.use([LineChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

export interface PerformanceLabels {
  cpu: string;
  memory: string;
  disk: string;
  load: string;
  rx: string;
  tx: string;
}

const clock = (at: number, withDay: boolean) => {
  const d = new Date(at);
  const hm = d.toTimeString().slice(0, 5);
  return withDay ? `${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')} ${hm}` : hm;
};

/** Shares (CPU, memory, fullest disk) in % on the left axis, load beside them, network rates on the right. */
export default function PerformanceLines({ series, labels }: { series: PerformanceSeries; labels: PerformanceLabels }) {
  const points = series.points;
  const line = (name: string, data: number[], yAxisIndex = 0) => ({ name, type: 'line', showSymbol: false, yAxisIndex, data });
  const option = {
    tooltip: { trigger: 'axis' },
    legend: {},
    grid: { left: 44, right: 72, top: 36, bottom: 28 },
    xAxis: { type: 'category', data: points.map((p) => clock(p.at, series.period === '7d')) },
    yAxis: [
      { type: 'value', min: 0 },
      { type: 'value', min: 0, axisLabel: { formatter: (v: number) => formatSpeed(v) } },
    ],
    series: [
      line(labels.cpu, points.map((p) => Math.round(p.cpu))),
      line(labels.memory, points.map((p) => Math.round(p.memory))),
      line(labels.disk, points.map((p) => Math.round(p.disk))),
      line(labels.load, points.map((p) => Math.round(p.load * 100) / 100)),
      line(labels.rx, points.map((p) => Math.round(p.rx)), 1),
      line(labels.tx, points.map((p) => Math.round(p.tx)), 1),
    ],
  };
  return (
    <div data-testid="dash-perf-chart">
      <ReactEChartsCore echarts={echarts} option={option} notMerge opts={{ renderer: 'svg' }} style={{ height: 240 }} />
    </div>
  );
}
