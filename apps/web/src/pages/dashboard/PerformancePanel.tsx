import { Alert, Card, Segmented, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { performancePeriods, type PerformancePeriod } from '@rampart/contracts';
import { fetchPerformanceSeries, performanceKey } from './wizard/wizardApi.ts';

const PerformanceLines = lazy(() => import('./PerformanceLines.tsx'));

/** Host performance over the last hour, day or week (GET /home/performance?period=), refreshed every 30 s. */
export function PerformancePanel() {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<PerformancePeriod>('1h');
  const query = useQuery({ queryKey: performanceKey(period), queryFn: () => fetchPerformanceSeries(period), refetchInterval: 30_000 });
  // An answer without points (agent away: null) is said, not drawn.
  const series = query.data && Array.isArray(query.data.points) ? query.data : null;
  const labels = { cpu: t('wizard.perf_cpu'), memory: t('wizard.perf_memory'), disk: t('wizard.perf_disk'), load: t('wizard.perf_load'), rx: t('wizard.perf_rx'), tx: t('wizard.perf_tx') };
  return (
    <Card
      size="small"
      title={t('wizard.perf_title')}
      data-testid="dash-perf"
      extra={(
        <Segmented<PerformancePeriod>
          size="small"
          value={period}
          onChange={setPeriod}
          options={performancePeriods.map((p) => ({ value: p, label: t(`wizard.perf_period.${p}`) }))}
          data-testid="dash-perf-period"
        />
      )}
    >
      {query.isPending ? <Spin /> : !series ? (
        <Alert type="warning" showIcon title={t('wizard.perf_unavailable')} data-testid="dash-perf-unavailable" />
      ) : series.points.length === 0 ? (
        <Alert type="info" showIcon title={t('wizard.perf_empty')} data-testid="dash-perf-empty" />
      ) : (
        <Suspense fallback={<Spin />}>
          <PerformanceLines series={series} labels={labels} />
        </Suspense>
      )}
    </Card>
  );
}
