import { Alert, Button, Card, Flex, Progress, Select, Space, Statistic, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { auditLevels, auditOutcomes, type AuditLevel, type AuditOutcome, type AuditResultRow, type AuditRun, type AuditRunState, type AuditStatus } from '@rampart/contracts';
import { EmptyHint } from '../../components/EmptyHint.tsx';
import { useCan } from '../../session/useUserInfo.ts';
import { formatDateTime } from '../../utils/format.ts';
import { auditKey, auditPollMs, fetchAuditHistory, fetchAuditResults, fetchAuditStatus, startAudit, type ResultsQuery } from './api.ts';
import { Evidence, LevelTag, useLocalized } from './parts.tsx';
import { ReportExport } from './ReportExport.tsx';

/**
 * The spec's audit states from the agent's status: no run yet → start; a run in progress →
 * auditing; the latest run ended → finished, and the button offers "again".
 */
export function auditState(status: AuditStatus | undefined): AuditRunState {
  if (!status?.run) return 'start';
  if (status.running) return 'auditing';
  return 'finished';
}

/** Polls while something runs; when it stops, everything the run changed is read again. */
export function useAuditStatus() {
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: [...auditKey, 'status'],
    queryFn: fetchAuditStatus,
    refetchInterval: (q) => (q.state.data?.running || q.state.data?.reinforce.running ? auditPollMs : false),
  });
  // A short run can start and end between two polls: what changed is the latest run and the
  // reinforcement's progress, so a change of either reads the results, history and items again.
  const d = status.data;
  const signature = d ? `${d.run?.id}:${d.run?.status}:${d.running}:${d.reinforce.running}:${d.reinforce.done}` : '';
  const seen = useRef(signature);
  useEffect(() => {
    if (seen.current !== signature && signature !== '') void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] === auditKey[0] && q.queryKey[1] !== 'status' });
    seen.current = signature;
  }, [signature, queryClient]);
  return status;
}

const seconds = (ms: number | null) => (ms === null ? '-' : (ms / 1000).toFixed(1));

function Summary({ run }: { run: AuditRun }) {
  const { t } = useTranslation();
  if (run.status === 'interrupted') return <Alert type="warning" showIcon title={t('audit.interrupted')} data-testid="audit-interrupted" />;
  if (run.status === 'failed') return <Alert type="error" showIcon title={t('audit.failed_run', { error: run.error ?? '' })} />;
  if (run.status !== 'finished' || !run.counts || !run.failed_by_level) return null;
  const c = run.counts;
  return (
    <Card size="small" data-testid="audit-summary">
      <Flex gap={48} wrap align="center">
        <Statistic title={t('audit.score')} value={run.score ?? 0} suffix="/ 100" data-testid="audit-score" />
        <Space orientation="vertical" size={4}>
          <Typography.Text type="secondary">{t('audit.failed_by_level')}</Typography.Text>
          <Space data-testid="audit-failed-by-level">
            {(['danger', 'warning', 'hint'] as const).map((level) => (
              <Space key={level} size={4}>
                <LevelTag level={level} />
                <Typography.Text strong data-testid={`audit-failed-${level}`}>{run.failed_by_level![level]}</Typography.Text>
              </Space>
            ))}
          </Space>
        </Space>
        <Space orientation="vertical" size={4}>
          <Typography.Text data-testid="audit-counts">{t('audit.counts', { pass: c.pass, fail: c.fail, na: c.not_applicable, error: c.error })}</Typography.Text>
          <Typography.Text type="secondary">{t('audit.finished_at', { time: formatDateTime(run.finished_at ?? run.started_at), seconds: seconds(run.duration_ms) })}</Typography.Text>
        </Space>
      </Flex>
    </Card>
  );
}

function RunProgress({ status }: { status: AuditStatus }) {
  const { t } = useTranslation();
  const p = status.progress;
  if (!p) return null;
  const percent = p.phase === 'facts' ? 5 : Math.max(5, Math.round((100 * p.done) / Math.max(1, p.total)));
  return (
    <Card size="small" data-testid="audit-progress">
      <Progress percent={percent} status="active" />
      <Typography.Text type="secondary">
        {p.phase === 'facts' ? t('audit.phase_facts') : t('audit.phase_checks', { category: p.category ? t(`audit.category.${p.category}`) : '', done: p.done, total: p.total })}
      </Typography.Text>
    </Card>
  );
}

/** The `system` tab: start an audit, watch it run, read the score and the findings; the history below. */
export function SystemAuditPage() {
  const { t } = useTranslation();
  const localized = useLocalized();
  const canStart = useCan('audit', 'edit');
  const queryClient = useQueryClient();
  const status = useAuditStatus();
  const state = auditState(status.data);
  const [query, setQuery] = useState<ResultsQuery>({ outcome: 'fail', page: 1, size: 20 });
  const [historyPage, setHistoryPage] = useState(1);
  const results = useQuery({ queryKey: [...auditKey, 'results', query], queryFn: () => fetchAuditResults(query), placeholderData: keepPreviousData });
  const history = useQuery({ queryKey: [...auditKey, 'history', historyPage], queryFn: () => fetchAuditHistory(historyPage, 10), placeholderData: keepPreviousData });
  const start = useMutation({ mutationFn: startAudit, onSettled: () => void queryClient.invalidateQueries({ queryKey: [...auditKey, 'status'] }) });
  const shownRun = results.data?.run ?? null;
  const latest = status.data?.run ?? null;
  const viewing = query.run_id !== undefined && shownRun !== null && latest !== null && shownRun.id !== latest.id;

  const columns: TableColumnsType<AuditResultRow> = [
    { key: 'level', title: t('audit.col_level'), dataIndex: 'level', width: 90, render: (v: AuditLevel, r) => <LevelTag level={v} testId={`audit-level-${r.id}`} /> },
    {
      key: 'title', title: t('audit.col_title'), width: 260,
      render: (_v, r) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text strong>{localized(r.title)}</Typography.Text>
          <Space size={4}>
            <Typography.Text type="secondary">{t(`audit.category.${r.category}`)}</Typography.Text>
            {r.cis_section && <Typography.Text type="secondary">{`CIS ${r.cis_section}`}</Typography.Text>}
          </Space>
        </Space>
      ),
    },
    {
      key: 'outcome', title: t('audit.col_outcome'), dataIndex: 'outcome', width: 110,
      render: (v: AuditOutcome, r) => (
        <Space orientation="vertical" size={2}>
          <Tag color={v === 'pass' ? 'green' : v === 'fail' ? 'red' : 'default'} data-testid={`audit-outcome-${r.id}`}>{t(`audit.outcome.${v}`)}</Tag>
          {r.fixable && <Tag color="cyan">{t('audit.fixable')}</Tag>}
        </Space>
      ),
    },
    { key: 'advice', title: t('audit.col_advice'), width: 320, render: (_v, r) => localized(r.advice) },
    { key: 'evidence', title: t('audit.col_evidence'), width: 320, render: (_v, r) => <Evidence evidence={r.evidence} /> },
  ];
  const historyColumns: TableColumnsType<AuditRun> = [
    { key: 'started', title: t('audit.col_started'), dataIndex: 'started_at', width: 170, render: (v: number) => formatDateTime(v) },
    { key: 'status', title: t('audit.col_status'), dataIndex: 'status', width: 100, render: (v: AuditRun['status'], r) => <span data-testid={`audit-history-status-${r.id}`}>{t(`audit.run_status.${v}`)}</span> },
    { key: 'score', title: t('audit.col_score'), dataIndex: 'score', width: 80, render: (v: number | null) => (v === null ? '-' : v) },
    { key: 'failed', title: t('audit.col_failed'), width: 200, render: (_v, r) => (r.failed_by_level ? `${r.failed_by_level.danger} / ${r.failed_by_level.warning} / ${r.failed_by_level.hint}` : '-') },
    { key: 'duration', title: t('audit.col_duration'), dataIndex: 'duration_ms', width: 100, render: (v: number | null) => (v === null ? '-' : t('audit.seconds', { seconds: seconds(v) })) },
    { key: 'account', title: t('audit.col_account'), dataIndex: 'account', width: 120, render: (v: string) => v || '-' },
    {
      key: 'view', title: '', width: 80,
      render: (_v, r) => r.status === 'finished' && <Typography.Link onClick={() => setQuery((q) => ({ ...q, run_id: r.id, page: 1 }))} data-testid={`audit-history-view-${r.id}`}>{t('audit.view')}</Typography.Link>,
    },
  ];

  return (
    <Flex vertical gap={16} data-testid="audit-system-page">
      {status.data && !status.data.available && <Alert type="warning" showIcon title={t('audit.not_available')} data-testid="audit-not-available" />}
      <Flex gap={16} align="center" wrap>
        {canStart && (
          <Button type="primary" size="large" loading={state === 'auditing' || start.isPending} disabled={status.data?.reinforce.running} onClick={() => start.mutate()} data-testid="audit-start">
            {t(`audit.button.${state === 'finished' ? 'again' : state}`)}
          </Button>
        )}
        <Typography.Text data-testid="audit-state" data-state={state}>{t(`audit.state.${state}`)}</Typography.Text>
        <ReportExport run={status.data?.running ? null : viewing ? shownRun : latest} />
      </Flex>
      {status.data?.running && <RunProgress status={status.data} />}
      {latest && !status.data?.running && (viewing ? (
        <>
          <Alert
            type="info"
            showIcon
            title={t('audit.viewing', { time: formatDateTime(shownRun.started_at) })}
            action={<Button size="small" onClick={() => setQuery((q) => ({ ...q, run_id: undefined, page: 1 }))} data-testid="audit-back-latest">{t('audit.back_latest')}</Button>}
          />
          <Summary run={shownRun} />
        </>
      ) : <Summary run={latest} />)}
      <Flex gap={12} wrap align="center">
        <Typography.Text>{t('audit.filter_level')}</Typography.Text>
        <Select
          style={{ width: 140 }}
          value={query.level ?? 'all'}
          onChange={(v: string) => setQuery((q) => ({ ...q, level: v === 'all' ? undefined : (v as AuditLevel), page: 1 }))}
          options={[{ value: 'all', label: t('audit.all') }, ...auditLevels.map((l) => ({ value: l, label: t(`audit.level.${l}`) }))]}
          data-testid="audit-filter-level"
        />
        <Typography.Text>{t('audit.filter_outcome')}</Typography.Text>
        <Select
          style={{ width: 160 }}
          value={query.outcome ?? 'all'}
          onChange={(v: string) => setQuery((q) => ({ ...q, outcome: v === 'all' ? undefined : (v as AuditOutcome), page: 1 }))}
          options={[{ value: 'all', label: t('audit.all') }, ...auditOutcomes.map((o) => ({ value: o, label: t(`audit.outcome.${o}`) }))]}
          data-testid="audit-filter-outcome"
        />
      </Flex>
      <Table<AuditResultRow>
        rowKey="id"
        columns={columns}
        dataSource={results.data?.list ?? []}
        loading={results.isFetching}
        scroll={{ x: 1100 }}
        locale={{ emptyText: shownRun ? undefined : t('audit.no_results') }}
        onRow={(r) => ({ 'data-testid': `audit-result-${r.id}` }) as HTMLAttributes<HTMLElement>}
        pagination={{ current: query.page, pageSize: query.size, total: results.data?.total ?? 0, showSizeChanger: true, onChange: (page, size) => setQuery((q) => ({ ...q, page, size })) }}
        data-testid="audit-results"
      />
      <Typography.Title level={5}>{t('audit.history')}</Typography.Title>
      <Table<AuditRun>
        rowKey="id"
        columns={historyColumns}
        dataSource={history.data?.list ?? []}
        loading={history.isFetching}
        size="small"
        locale={{ emptyText: <EmptyHint text={t('empty.audit.history')} next={canStart ? t('empty.audit.history_next', { button: t('audit.button.start') }) : t('empty.read_only')} testId="audit-history-empty" /> }}
        onRow={(r) => ({ 'data-testid': `audit-history-${r.id}` }) as HTMLAttributes<HTMLElement>}
        pagination={{ current: historyPage, pageSize: 10, total: history.data?.total ?? 0, onChange: setHistoryPage }}
        data-testid="audit-history"
      />
    </Flex>
  );
}
