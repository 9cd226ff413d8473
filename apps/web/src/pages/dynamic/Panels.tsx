import { Card, Col, Empty, List, Row, Spin, Statistic, Table, Tag } from 'antd';
import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DynamicConnections, DynamicOverview, DynamicSettings, PerformanceSeries } from '@rampart/contracts';
import { EmptyHint } from '../../components/EmptyHint.tsx';
import type { ChartHeight } from './Charts.tsx';
import { MapPanelBody } from './MapPanel.tsx';
import { useDynamicNames } from './names.ts';

export interface PanelData {
  overview: DynamicOverview;
  connections: DynamicConnections | undefined;
  performance: PerformanceSeries | undefined;
  settings: DynamicSettings | undefined;
}

const time = (ms: number) => new Date(ms).toLocaleTimeString();

/** One panel; `fill`: its body takes the height the layout gives the card (the big screen's grid cells). */
export function Panel({ title, testId, children, dark, fill = false }: { title: string; testId: string; children: ReactNode; dark: boolean; fill?: boolean }) {
  return (
    <Card
      size="small"
      title={title}
      data-testid={testId}
      style={{ height: '100%', ...(dark ? { background: 'rgba(8,36,72,0.85)', borderColor: '#1d4b80' } : {}), ...(fill ? { display: 'flex', flexDirection: 'column', overflow: 'hidden' } : {}) }}
      styles={fill ? { body: { flex: 1, minHeight: 0 } } : undefined}
    >
      {children}
    </Card>
  );
}

/** Where the panels are drawn: the dashboard (light, natural heights) or the big screen (dark, each panel filling a fixed cell). */
export interface PanelLook {
  dark: boolean;
  /** Charts, lists and tables fill their panel's height and cut what does not fit (no scrollbars on a wall display). */
  fill: boolean;
}

export type PanelKey = 'today' | 'yesterday' | 'total' | 'map' | 'latest' | 'trend' | 'performance' | 'report' | 'ips' | 'security' | 'connections';

/** Every panel's title, test id and content, for a layout to arrange. */
export function usePanelParts(data: PanelData, { dark, fill }: PanelLook): Record<PanelKey, { title: string; testId: string; body: ReactNode }> {
  const { t } = useTranslation();
  const names = useDynamicNames();
  const { overview, connections, performance, settings } = data;
  const target = settings?.location || overview.server_area;
  const spin = <Spin />;
  const chartHeight = fill ? ('100%' as const) : undefined;
  // On the big screen a table shows the rows that fit its cell; the lists are ranked, so the first ones matter most.
  const cut = (body: ReactNode) => (fill ? <div style={{ height: '100%', overflow: 'hidden' }}>{body}</div> : body);
  const kindRows = (rows: DynamicOverview['report']) => rows.map((r) => ({ key: `${r.module}/${r.kind}`, module: names.module(r.module), kind: names.kind(r.kind), count: r.count }));
  const kindColumns = [
    { title: t('dynamic.module'), dataIndex: 'module' },
    { title: t('dynamic.kind'), dataIndex: 'kind' },
    { title: t('dynamic.count'), dataIndex: 'count', align: 'right' as const },
  ];
  const counter = (key: 'today' | 'yesterday' | 'total') => ({
    title: t(`dynamic.${key}`),
    testId: `dynamic-count-${key}`,
    body: <Statistic value={overview.counts[key]} styles={{ content: dark ? { color: '#36cfc9', fontSize: 40, lineHeight: 1.2 } : undefined }} />,
  });
  return {
    today: counter('today'),
    yesterday: counter('yesterday'),
    total: counter('total'),
    map: {
      title: t('dynamic.map'),
      testId: 'dynamic-map',
      body: <MapPanelBody dark={dark} fill={fill} areas={overview.areas} target={target} areaName={names.area} height={chartHeight} />,
    },
    latest: {
      title: t('dynamic.latest'),
      testId: 'dynamic-latest',
      body: overview.latest.length === 0 ? (
        <Empty description={t('dynamic.none')} />
      ) : (
        <List
          size="small"
          style={fill ? { height: '100%', overflow: 'hidden' } : { maxHeight: 400, overflow: 'auto' }}
          dataSource={overview.latest}
          renderItem={(a) => (
            <List.Item key={a.id} data-testid="dynamic-latest-item">
              <span>{time(a.time)}</span> <Tag>{names.area(a.area)}</Tag> <span>{a.ip}</span> <span>{names.kind(a.kind)}</span>
            </List.Item>
          )}
        />
      ),
    },
    trend: {
      title: t('dynamic.trend'),
      testId: 'dynamic-trend',
      body: (
        <Suspense fallback={spin}>
          <TrendThemed dark={dark} trend={overview.trend} name={t('dynamic.attacks')} height={chartHeight} />
        </Suspense>
      ),
    },
    performance: {
      title: t('dynamic.performance'),
      testId: 'dynamic-performance',
      body: (
        <Suspense fallback={spin}>
          <PerformanceThemed dark={dark} series={performance} labels={{ cpu: t('dynamic.cpu'), memory: t('dynamic.memory') }} height={chartHeight} />
        </Suspense>
      ),
    },
    report: {
      title: t('dynamic.report'),
      testId: 'dynamic-report',
      body: cut(<Table size="small" pagination={false} locale={{ emptyText: <EmptyHint text={t('dynamic.empty_attacks')} next={t('dynamic.empty_attacks_next')} /> }} dataSource={kindRows(overview.report)} columns={kindColumns} />),
    },
    ips: {
      title: t('dynamic.ips'),
      testId: 'dynamic-ips',
      body: cut(
        <Table
          size="small"
          pagination={false}
          locale={{ emptyText: <EmptyHint text={t('dynamic.empty_attacks')} next={t('dynamic.empty_attacks_next')} /> }}
          dataSource={overview.ips.map((r) => ({ key: r.ip, ip: r.ip, area: names.area(r.area), count: r.count }))}
          columns={[
            { title: t('dynamic.ip'), dataIndex: 'ip' },
            { title: t('dynamic.area'), dataIndex: 'area' },
            { title: t('dynamic.count'), dataIndex: 'count', align: 'right' as const },
          ]}
        />,
      ),
    },
    security: {
      title: t('dynamic.security'),
      testId: 'dynamic-security',
      body: cut(<Table size="small" pagination={false} locale={{ emptyText: <EmptyHint text={t('dynamic.empty_security')} next={t('dynamic.empty_security_next')} /> }} dataSource={kindRows(overview.security)} columns={kindColumns} />),
    },
    connections: {
      title: t('dynamic.connections'),
      testId: 'dynamic-connections',
      body: connections ? (
        cut(
          <Row gutter={12}>
            <Col span={12}>
              <Table size="small" pagination={false} locale={{ emptyText: <EmptyHint text={t('dynamic.empty_connections')} /> }} dataSource={connections.states.map((s) => ({ key: s.state, state: s.state, count: s.count }))} columns={[{ title: t('dynamic.state'), dataIndex: 'state' }, { title: t('dynamic.count'), dataIndex: 'count', align: 'right' as const }]} />
            </Col>
            <Col span={12}>
              <Table size="small" pagination={false} locale={{ emptyText: <EmptyHint text={t('dynamic.empty_connections')} /> }} dataSource={connections.areas.map((s) => ({ key: s.area, area: names.area(s.area), count: s.count }))} columns={[{ title: t('dynamic.area'), dataIndex: 'area' }, { title: t('dynamic.count'), dataIndex: 'count', align: 'right' as const }]} />
            </Col>
          </Row>,
        )
      ) : (
        spin
      ),
    },
  };
}

/** Every panel of the dashboard, in rows that wrap with the window. */
export function DynamicPanels({ data, settingsCard }: { data: PanelData; settingsCard?: ReactNode }) {
  const parts = usePanelParts(data, { dark: false, fill: false });
  const cell = (key: PanelKey, span: { xs: number; md?: number; xl?: number }) => (
    <Col {...span} key={key}>
      <Panel title={parts[key].title} testId={parts[key].testId} dark={false}>
        {parts[key].body}
      </Panel>
    </Col>
  );
  return (
    <Row gutter={[12, 12]}>
      {cell('today', { xs: 24, md: 8 })}
      {cell('yesterday', { xs: 24, md: 8 })}
      {cell('total', { xs: 24, md: 8 })}
      {cell('map', { xs: 24, xl: 16 })}
      {cell('latest', { xs: 24, xl: 8 })}
      {cell('trend', { xs: 24, xl: 12 })}
      {cell('performance', { xs: 24, xl: 12 })}
      {cell('report', { xs: 24, md: 12, xl: 8 })}
      {cell('ips', { xs: 24, md: 12, xl: 8 })}
      {cell('security', { xs: 24, md: 12, xl: 8 })}
      {cell('connections', { xs: 24, md: 12, xl: settingsCard ? 12 : 24 })}
      {settingsCard && (
        <Col xs={24} md={12}>
          {settingsCard}
        </Col>
      )}
    </Row>
  );
}

/* The charts with the palette of the page (light, or dark on the big screen). ECharts and the map data load with them, on the dynamic pages only. */
const ThemedTrend = lazy(() => import('./Charts.tsx').then((m) => ({ default: (p: { dark: boolean } & Parameters<typeof m.TrendChart>[0]) => <m.TrendChart {...p} palette={p.dark ? m.darkPalette : m.lightPalette} /> })));
function TrendThemed(props: { dark: boolean; trend: DynamicOverview['trend']; name: string; height: ChartHeight | undefined }) {
  return <ThemedTrend {...props} />;
}
const ThemedPerformance = lazy(() => import('./Charts.tsx').then((m) => ({ default: (p: { dark: boolean } & Parameters<typeof m.PerformanceChart>[0]) => <m.PerformanceChart {...p} palette={p.dark ? m.darkPalette : m.lightPalette} /> })));
function PerformanceThemed(props: { dark: boolean; series: PerformanceSeries | undefined; labels: { cpu: string; memory: string }; height: ChartHeight | undefined }) {
  return <ThemedPerformance {...props} />;
}
