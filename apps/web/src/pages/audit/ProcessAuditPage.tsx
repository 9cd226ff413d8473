import { Alert, Flex, Space, Spin, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditProcess } from '@rampart/contracts';
import { EmptyHint, searchEmpty } from '../../components/EmptyHint.tsx';
import { formatDateTime } from '../../utils/format.ts';
import { auditKey } from './api.ts';
import { fetchAuditProcess, fetchAuditProcesses, type InventoryQuery } from './inventory-api.ts';
import { FindingExplanations, FindingTags, InventoryToolbar } from './inventory-parts.tsx';

/** The expanded row: the command line, listening sockets, package ownership and every mapped library (read again, in full). */
function ProcessDetail({ row }: { row: AuditProcess }) {
  const { t } = useTranslation();
  const detail = useQuery({ queryKey: [...auditKey, 'process', row.pid], queryFn: () => fetchAuditProcess(row.pid), retry: false });
  const p = detail.data ?? row;
  const packaged = p.packaged === null ? 'unknown' : p.packaged ? 'yes' : 'no';
  return (
    <Flex vertical gap={8} data-testid={`audit-process-detail-${row.pid}`}>
      {detail.isError && <Alert type="info" showIcon title={t('audit_inv.process.gone')} />}
      <div>
        <Typography.Text type="secondary">{t('audit_inv.process.cmdline')}: </Typography.Text>
        <Typography.Text code>{p.cmdline || '-'}</Typography.Text>
      </div>
      <Typography.Text type="secondary">{t(`audit_inv.process.packaged.${packaged}`)}</Typography.Text>
      <FindingExplanations tab="process" findings={p.findings} />
      <Typography.Text strong>{t('audit_inv.process.modules_title', { count: p.modules_total })}</Typography.Text>
      {detail.isFetching && <Spin size="small" />}
      {p.modules_total === 0 ? (
        <Typography.Text type="secondary">{t('audit_inv.process.modules_none')}</Typography.Text>
      ) : (
        <Flex vertical data-testid={`audit-process-modules-${row.pid}`}>
          {p.modules.map((m) => <Typography.Text key={m} code>{m}</Typography.Text>)}
        </Flex>
      )}
    </Flex>
  );
}

/** The `process` tab: every running program with its user, path, start time, parent, libraries and findings. */
export function ProcessAuditPage() {
  const { t } = useTranslation();
  const [query, setQuery] = useState<InventoryQuery>({ findings_only: false, keyword: '', page: 1, size: 20 });
  const processes = useQuery({ queryKey: [...auditKey, 'processes', query], queryFn: () => fetchAuditProcesses(query), placeholderData: keepPreviousData });

  const columns: TableColumnsType<AuditProcess> = [
    {
      key: 'name', title: t('audit_inv.process.col_name'), width: 150,
      render: (_v, p) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text strong>{p.name}</Typography.Text>
          <Typography.Text type="secondary">{`PID ${p.pid}`}</Typography.Text>
        </Space>
      ),
    },
    { key: 'user', title: t('audit_inv.process.col_user'), dataIndex: 'user', width: 110 },
    {
      key: 'path', title: t('audit_inv.process.col_path'), width: 280,
      render: (_v, p) => (p.path === null ? <Typography.Text type="secondary">{t('audit_inv.process.unreadable')}</Typography.Text> : (
        <Space size={4} wrap>
          <Typography.Text code>{p.path}</Typography.Text>
          {p.deleted && <Tag color="red">{t('audit_inv.process.deleted')}</Tag>}
        </Space>
      )),
    },
    { key: 'start', title: t('audit_inv.process.col_start'), dataIndex: 'start_time', width: 170, render: (v: number) => formatDateTime(v) },
    { key: 'parent', title: t('audit_inv.process.col_parent'), width: 150, render: (_v, p) => (p.parent ? `${p.parent.name} (${p.parent.pid})` : '-') },
    { key: 'modules', title: t('audit_inv.process.col_modules'), width: 110, render: (_v, p) => t('audit_inv.process.modules_count', { count: p.modules_total }) },
    { key: 'findings', title: t('audit_inv.process.col_findings'), width: 240, render: (_v, p) => <FindingTags tab="process" findings={p.findings} testId={`audit-process-findings-${p.pid}`} /> },
  ];
  const empty = query.keyword
    ? searchEmpty(t, query.keyword)
    : query.findings_only
    ? { text: t('audit_inv.process.empty_filtered'), next: t('audit_inv.process.empty_filtered_next') }
    : { text: t('audit_inv.process.empty'), next: t('audit_inv.process.empty_next') };

  return (
    <Flex vertical gap={16} data-testid="audit-process-page">
      <InventoryToolbar
        prefix="audit-process"
        findingsOnly={query.findings_only}
        onFindingsOnly={(on) => setQuery((q) => ({ ...q, findings_only: on, page: 1 }))}
        onSearch={(keyword) => setQuery((q) => ({ ...q, keyword: keyword.trim(), page: 1 }))}
        onRefresh={() => void processes.refetch()}
        loading={processes.isFetching}
        data={processes.data}
      />
      <Table<AuditProcess>
        rowKey="pid"
        columns={columns}
        dataSource={processes.data?.list ?? []}
        loading={processes.isFetching}
        scroll={{ x: 1250 }}
        locale={{ emptyText: <EmptyHint {...empty} testId="audit-process-empty" /> }}
        onRow={(p) => ({ 'data-testid': `audit-process-row-${p.pid}` }) as HTMLAttributes<HTMLElement>}
        expandable={{ expandedRowRender: (p) => <ProcessDetail row={p} /> }}
        pagination={{ current: query.page, pageSize: query.size, total: processes.data?.total ?? 0, showSizeChanger: true, onChange: (page, size) => setQuery((q) => ({ ...q, page, size })) }}
        data-testid="audit-process-table"
      />
    </Flex>
  );
}
