import { Card, Col, Empty, List, Row, Spin, Statistic, Table, Tag, Typography } from 'antd';
import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DynamicConnections, DynamicOverview, DynamicSettings, PerformanceSeries } from '@rampart/contracts';
import { EmptyHint } from '../../components/EmptyHint.tsx';
import { useDynamicNames } from './names.ts';

export interface PanelData {
  overview: DynamicOverview;
  connections: DynamicConnections | undefined;
  performance: PerformanceSeries | undefined;
  settings: DynamicSettings | undefined;
}

const time = (ms: number) => new Date(ms).toLocaleTimeString();

function Panel({ title, testId, children, dark }: { title: string; testId: string; children: ReactNode; dark: boolean }) {
  return (
    <Card size="small" title={title} data-testid={testId} style={dark ? { background: 'rgba(8,36,72,0.85)', borderColor: '#1d4b80', height: '100%' } : { height: '100%' }}>
      {children}
    </Card>
  );
}

/** Every panel of the dashboard; `dark` for the big screen. */
export function DynamicPanels({ data, dark = false, settingsCard }: { data: PanelData; dark?: boolean; settingsCard?: ReactNode }) {
  const { t } = useTranslation();
  const names = useDynamicNames();
  const { overview, connections, performance, settings } = data;
  const target = settings?.location || overview.server_area;
  const spin = <Spin />;
  const kindRows = (rows: DynamicOverview['report']) => rows.map((r) => ({ key: `${r.module}/${r.kind}`, module: names.module(r.module), kind: names.kind(r.kind), count: r.count }));
  const kindColumns = [
    { title: t('dynamic.module'), dataIndex: 'module' },
    { title: t('dynamic.kind'), dataIndex: 'kind' },
    { title: t('dynamic.count'), dataIndex: 'count', align: 'right' as const },
  ];
  return (
    <Row gutter={[12, 12]}>
      {(['today', 'yesterday', 'total'] as const).map((key) => (
        <Col xs={24} md={8} key={key}>
          <Panel title={t(`dynamic.${key}`)} testId={`dynamic-count-${key}`} dark={dark}>
            <Statistic value={overview.counts[key]} styles={{ content: dark ? { color: '#36cfc9', fontSize: 40 } : undefined }} />
          </Panel>
        </Col>
      ))}
      <Col xs={24} xl={16}>
        <Panel title={t('dynamic.map')} testId="dynamic-map" dark={dark}>
          <Suspense fallback={spin}>
            <AttackMapThemed dark={dark} areas={overview.areas} target={target} areaName={names.area} />
          </Suspense>
          <Typography.Text type="secondary">
            {t('dynamic.location')}: {target ? names.area(target) : t('dynamic.unknown')}
          </Typography.Text>
        </Panel>
      </Col>
      <Col xs={24} xl={8}>
        <Panel title={t('dynamic.latest')} testId="dynamic-latest" dark={dark}>
          {overview.latest.length === 0 ? (
            <Empty description={t('dynamic.none')} />
          ) : (
            <List
              size="small"
              style={{ maxHeight: 400, overflow: 'auto' }}
              dataSource={overview.latest}
              renderItem={(a) => (
                <List.Item key={a.id} data-testid="dynamic-latest-item">
                  <span>{time(a.time)}</span> <Tag>{names.area(a.area)}</Tag> <span>{a.ip}</span> <span>{names.kind(a.kind)}</span>
                </List.Item>
              )}
            />
          )}
        </Panel>
      </Col>
      <Col xs={24} xl={12}>
        <Panel title={t('dynamic.trend')} testId="dynamic-trend" dark={dark}>
          <Suspense fallback={spin}>
            <TrendThemed dark={dark} trend={overview.trend} name={t('dynamic.attacks')} />
          </Suspense>
        </Panel>
      </Col>
      <Col xs={24} xl={12}>
        <Panel title={t('dynamic.performance')} testId="dynamic-performance" dark={dark}>
          <Suspense fallback={spin}>
            <PerformanceThemed dark={dark} series={performance} labels={{ cpu: t('dynamic.cpu'), memory: t('dynamic.memory') }} />
          </Suspense>
        </Panel>
      </Col>
      <Col xs={24} md={12} xl={8}>
        <Panel title={t('dynamic.report')} testId="dynamic-report" dark={dark}>
          <Table size="small" pagination={false} locale={{ emptyText: <EmptyHint text={t('dynamic.empty_attacks')} next={t('dynamic.empty_attacks_next')} /> }} dataSource={kindRows(overview.report)} columns={kindColumns} />
        </Panel>
      </Col>
      <Col xs={24} md={12} xl={8}>
        <Panel title={t('dynamic.ips')} testId="dynamic-ips" dark={dark}>
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
          />
        </Panel>
      </Col>
      <Col xs={24} md={12} xl={8}>
        <Panel title={t('dynamic.security')} testId="dynamic-security" dark={dark}>
          <Table size="small" pagination={false} locale={{ emptyText: <EmptyHint text={t('dynamic.empty_security')} next={t('dynamic.empty_security_next')} /> }} dataSource={kindRows(overview.security)} columns={kindColumns} />
        </Panel>
      </Col>
      <Col xs={24} md={12} xl={settingsCard ? 12 : 24}>
        <Panel title={t('dynamic.connections')} testId="dynamic-connections" dark={dark}>
          {connections ? (
            <Row gutter={12}>
              <Col span={12}>
                <Table size="small" pagination={false} locale={{ emptyText: <EmptyHint text={t('dynamic.empty_connections')} /> }} dataSource={connections.states.map((s) => ({ key: s.state, state: s.state, count: s.count }))} columns={[{ title: t('dynamic.state'), dataIndex: 'state' }, { title: t('dynamic.count'), dataIndex: 'count', align: 'right' as const }]} />
              </Col>
              <Col span={12}>
                <Table size="small" pagination={false} locale={{ emptyText: <EmptyHint text={t('dynamic.empty_connections')} /> }} dataSource={connections.areas.map((s) => ({ key: s.area, area: names.area(s.area), count: s.count }))} columns={[{ title: t('dynamic.area'), dataIndex: 'area' }, { title: t('dynamic.count'), dataIndex: 'count', align: 'right' as const }]} />
              </Col>
            </Row>
          ) : (
            spin
          )}
        </Panel>
      </Col>
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
function TrendThemed(props: { dark: boolean; trend: DynamicOverview['trend']; name: string }) {
  return <ThemedTrend {...props} />;
}
const ThemedMap = lazy(() => import('./Charts.tsx').then((m) => ({ default: (p: { dark: boolean } & Parameters<typeof m.AttackMap>[0]) => <m.AttackMap {...p} palette={p.dark ? m.darkPalette : m.lightPalette} /> })));
function AttackMapThemed(props: { dark: boolean; areas: DynamicOverview['areas']; target: string; areaName: (area: string) => string }) {
  return <ThemedMap {...props} />;
}
const ThemedPerformance = lazy(() => import('./Charts.tsx').then((m) => ({ default: (p: { dark: boolean } & Parameters<typeof m.PerformanceChart>[0]) => <m.PerformanceChart {...p} palette={p.dark ? m.darkPalette : m.lightPalette} /> })));
function PerformanceThemed(props: { dark: boolean; series: PerformanceSeries | undefined; labels: { cpu: string; memory: string } }) {
  return <ThemedPerformance {...props} />;
}
