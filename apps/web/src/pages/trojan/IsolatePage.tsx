import { DeleteOutlined, RollbackOutlined } from '@ant-design/icons';
import { App, Button, Flex, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TrojanIsolated, WebshellRisk } from '@rampart/contracts';
import { isApiError } from '../../api/errors.ts';
import { useCan } from '../../session/useUserInfo.ts';
import { formatDateTime, formatSize } from '../../utils/format.ts';
import { testId } from '../../utils/testId.ts';
import { defaultPageSize, type PageQuery } from '../firewall/api.ts';
import { useClampPage } from '../firewall/forms.ts';
import { KeywordSearch, PagedSelectableTable, SelectedCount } from '../firewall/parts.tsx';
import { PathText } from '../tamper/StateTag.tsx';
import { deleteIsolated, fetchIsolated, refusalOf, restoreIsolated, trojanKey } from './api.ts';
import { RiskTag, useReasonText } from './parts.tsx';
import { SourceViewer } from './SourceViewer.tsx';

/**
 * The `isolate` tab: files moved into the quarantine. Restore asks first and, when a file now sits
 * at the original path, asks again whether to overwrite it; delete asks; view opens the read-only
 * source viewer.
 */
export function IsolatePage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const reasonText = useReasonText();
  const canEdit = useCan('trojan', 'edit');
  const canDelete = useCan('trojan', 'delete');
  const [query, setQuery] = useState<PageQuery>({ keyword: '', page: 1, size: defaultPageSize });
  const [selected, setSelected] = useState<number[]>([]);
  const [viewing, setViewing] = useState<number | null>(null);
  const list = useQuery({ queryKey: [...trojanKey, 'isolate', query], queryFn: () => fetchIsolated(query), placeholderData: keepPreviousData });
  const rows = list.data?.list ?? [];
  useClampPage(list.data?.total, query, useCallback((page: number) => setQuery((q) => ({ ...q, page })), []));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trojanKey });
  const change = useMutation({ mutationFn: (run: () => Promise<unknown>) => run(), onSuccess: () => setSelected([]), onSettled: refresh });

  /** Restores; a file in the way is asked about once more, then overwritten on yes. */
  const restore = async (ids: number[]) => {
    try {
      await change.mutateAsync(() => restoreIsolated(ids, false));
    } catch (e) {
      const refusal = refusalOf(e);
      const message = isApiError(e) ? e.message : String(e);
      if (refusal?.refused !== 'trojan_restore_exists') {
        modal.error({ content: message, okText: t('common.ok') });
        return;
      }
      modal.confirm({
        title: t('trj.overwrite_title'),
        content: <span data-testid="trojan-overwrite-message">{`${message} ${t('trj.overwrite_confirm')}`}</span>,
        okText: t('common.ok'),
        cancelText: t('common.cancel'),
        okButtonProps: { danger: true, ...testId('trojan-overwrite-confirm') },
        onOk: () => change.mutateAsync(() => restoreIsolated(ids, true)).catch((again: unknown) => {
          modal.error({ content: isApiError(again) ? again.message : String(again), okText: t('common.ok') });
        }),
      });
    }
  };
  const confirm = (kind: 'restore' | 'delete', ids: number[]) =>
    modal.confirm({
      title: t(kind === 'restore' ? 'trj.restore_title' : 'trj.delete_isolated_title'),
      content: t(kind === 'restore' ? 'trj.restore_confirm' : 'trj.delete_isolated_confirm', { count: ids.length }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId(`trojan-isolate-${kind}-confirm`) },
      onOk: () => (kind === 'restore' ? void restore(ids) : change.mutateAsync(() => deleteIsolated(ids)).catch(() => undefined)),
    });

  const columns: TableColumnsType<TrojanIsolated> = [
    { key: 'name', title: t('trj.file_name'), dataIndex: 'name', width: 160, render: (v: string) => <Typography.Text strong style={{ wordBreak: 'break-all' }}>{v}</Typography.Text> },
    { key: 'originalPath', title: t('trj.original_path'), dataIndex: 'originalPath', width: 280, render: (v: string) => <PathText path={v} /> },
    { key: 'size', title: t('trj.size'), dataIndex: 'size', width: 90, render: (v: number) => formatSize(v) },
    { key: 'isolated', title: t('trj.isolated_at'), dataIndex: 'isolated', width: 170, render: (v: number) => formatDateTime(v) },
    {
      key: 'reason', title: t('trj.reason'), width: 260,
      render: (_v, r) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text data-testid={`trojan-isolate-reason-${r.id}`}>{reasonText(r.reason, r.rule)}</Typography.Text>
          <Tag>{t(`trj.isolate_source.${r.source}`)}</Tag>
        </Space>
      ),
    },
    { key: 'risk', title: t('trj.risk'), dataIndex: 'risk', width: 80, render: (v: WebshellRisk) => <RiskTag risk={v} /> },
    {
      key: 'actions', title: t('trj.actions'), width: 170, fixed: 'end',
      render: (_v, r) => (
        <Space>
          <Typography.Link onClick={() => setViewing(r.id)} data-testid={`trojan-isolate-view-${r.id}`}>{t('trj.view_source')}</Typography.Link>
          {canEdit && <Typography.Link onClick={() => confirm('restore', [r.id])} data-testid={`trojan-isolate-restore-${r.id}`}>{t('trj.restore')}</Typography.Link>}
          {canDelete && <Typography.Link type="danger" onClick={() => confirm('delete', [r.id])} data-testid={`trojan-isolate-delete-${r.id}`}>{t('trj.delete')}</Typography.Link>}
        </Space>
      ),
    },
  ];
  const none = selected.length === 0;

  return (
    <Flex vertical gap={16} data-testid="trojan-isolate-page">
      <Flex justify="space-between" wrap gap={12}>
        <Space wrap>
          {canEdit && <Button icon={<RollbackOutlined />} disabled={none} onClick={() => confirm('restore', selected)} data-testid="trojan-isolate-restore">{t('trj.restore_selected')}</Button>}
          {canDelete && <Button danger icon={<DeleteOutlined />} disabled={none} onClick={() => confirm('delete', selected)} data-testid="trojan-isolate-delete">{t('trj.delete_selected')}</Button>}
          <SelectedCount prefix="trojan-isolate" count={selected.length} />
        </Space>
        <KeywordSearch prefix="trojan-isolate" placeholder={t('trj.search_placeholder')} onSearch={(keyword) => {
          setSelected([]);
          setQuery((q) => ({ ...q, keyword, page: 1 }));
        }} />
      </Flex>
      <PagedSelectableTable<TrojanIsolated>
        prefix="trojan-isolate"
        empty={{ text: t('trj.no_isolated') }}
        columns={columns}
        rows={rows}
        total={list.data?.total ?? 0}
        loading={list.isFetching}
        scroll={{ x: 1200 }}
        selectable={canEdit || canDelete}
        selected={selected}
        setSelected={setSelected}
        query={query}
        setQuery={setQuery}
      />
      {viewing !== null && <SourceViewer rows={rows} startId={viewing} onClose={() => setViewing(null)} />}
    </Flex>
  );
}
