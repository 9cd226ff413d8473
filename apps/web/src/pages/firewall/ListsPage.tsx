import { DeleteOutlined, ImportOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Flex, Segmented, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firewallListKinds, type FirewallListKind, type ListEntry } from '@rampart/contracts';
import { addStep } from '../../components/EmptyHint.tsx';
import { useCan } from '../../session/useUserInfo.ts';
import { formatDateTime } from '../../utils/format.ts';
import { testId } from '../../utils/testId.ts';
import { defaultPageSize, deleteListEntries, fetchListEntries, firewallKey, type Ids, type PageQuery } from './api.ts';
import { FirewallTab, useReportChange } from './FirewallTab.tsx';
import { useClampPage, useNow } from './forms.ts';
import { ListAddModal, ListImportModal } from './ListModals.tsx';
import { ExportButton, KeywordSearch, PagedSelectableTable, SelectedCount } from './parts.tsx';

const firstPage: PageQuery = { keyword: '', page: 1, size: defaultPageSize };

function ListsBody() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const report = useReportChange();
  const canAdd = useCan('firewall', 'add');
  const canDelete = useCan('firewall', 'delete');
  const canImport = useCan('firewall', 'import');
  const canExport = useCan('firewall', 'export');
  const [kind, setKind] = useState<FirewallListKind>('white');
  const [query, setQuery] = useState<PageQuery>(firstPage);
  const [selected, setSelected] = useState<number[]>([]);
  const [dialog, setDialog] = useState<'add' | 'import' | null>(null);
  const now = useNow(60_000);
  const list = useQuery({
    queryKey: [...firewallKey, 'lists', kind, query],
    queryFn: () => fetchListEntries(kind, query),
    placeholderData: keepPreviousData,
  });
  const rows = list.data?.list ?? [];
  const total = list.data?.total ?? 0;
  useClampPage(list.data?.total, query, useCallback((page: number) => setQuery((q) => ({ ...q, page })), []));

  const remove = useMutation({
    mutationFn: (ids: Ids) => deleteListEntries(kind, ids),
    onSuccess: (data, ids) => {
      setSelected([]);
      if (ids === 'all') setQuery((q) => ({ ...q, page: 1 }));
      report(data);
    },
  });
  const confirmDelete = (ids: Ids) =>
    modal.confirm({
      title: t(`fw.lists.delete_title_${kind}`),
      content: ids === 'all' ? t(`fw.lists.delete_all_confirm_${kind}`, { count: total }) : t('fw.lists.delete_confirm', { count: ids.length }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('fw-list-delete-confirm') },
      onOk: () => remove.mutateAsync(ids).catch(() => undefined),
    });
  const switchKind = (next: FirewallListKind) => {
    setKind(next);
    setSelected([]);
    setQuery((q) => ({ ...q, page: 1 }));
  };

  const columns: TableColumnsType<ListEntry> = [
    { key: 'address', title: t('fw.lists.address'), dataIndex: 'address', render: (v: string) => <Typography.Text copyable={{ text: v }}>{v}</Typography.Text> },
    { key: 'remark', title: t('fw.remark'), dataIndex: 'remark', render: (v: string) => v || '-' },
    { key: 'created', title: t('fw.lists.created_at'), dataIndex: 'created_at', width: 180, render: (v: number) => formatDateTime(v) },
    {
      key: 'expires', title: t('fw.lists.expires_at'), dataIndex: 'expires_at', width: 220,
      render: (v: number | null, r) =>
        v === null ? (
          <Tag color="blue" data-testid={`fw-list-expiry-${r.id}`}>{t('fw.lists.permanent')}</Tag>
        ) : (
          <Space size={4} data-testid={`fw-list-expiry-${r.id}`}>
            <span>{formatDateTime(v)}</span>
            {v <= now && <Tag color="default">{t('fw.lists.expired')}</Tag>}
          </Space>
        ),
    },
  ];
  if (canDelete) {
    columns.push({
      key: 'actions', title: t('fw.actions'), width: 90,
      render: (_v, r) => (
        <Typography.Link type="danger" onClick={() => confirmDelete([r.id])} data-testid={`fw-list-delete-${r.id}`}>
          {t('fw.delete')}
        </Typography.Link>
      ),
    });
  }

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <Segmented<FirewallListKind>
          value={kind}
          onChange={switchKind}
          options={firewallListKinds.map((k) => ({ value: k, label: <span data-testid={`fw-list-kind-${k}`}>{t(`fw.lists.kind_${k}`)}</span> }))}
          data-testid="fw-list-kind"
        />
        <KeywordSearch
          prefix="fw-list"
          placeholder={t('fw.lists.keyword_placeholder')}
          onSearch={(keyword) => {
            setSelected([]);
            setQuery((q) => ({ ...q, keyword, page: 1 }));
          }}
        />
      </Flex>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }} data-testid="fw-list-hint">{t(`fw.lists.hint_${kind}`)}</Typography.Paragraph>
      <Space wrap>
        {canAdd && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog('add')} data-testid="fw-list-add">
            {t('fw.lists.add')}
          </Button>
        )}
        {canImport && (
          <Button icon={<ImportOutlined />} onClick={() => setDialog('import')} data-testid="fw-list-import">
            {t('fw.import')}
          </Button>
        )}
        {canExport && <ExportButton list={kind} testId="fw-list-export" />}
        {canDelete && (
          <>
            <Button danger icon={<DeleteOutlined />} disabled={selected.length === 0} onClick={() => confirmDelete(selected)} data-testid="fw-list-delete">
              {t('fw.delete_selected')}
            </Button>
            <Button danger disabled={total === 0} onClick={() => confirmDelete('all')} data-testid="fw-list-delete-all">
              {t('fw.delete_all')}
            </Button>
          </>
        )}
        <SelectedCount prefix="fw-list" count={selected.length} />
      </Space>
      <PagedSelectableTable<ListEntry>
        prefix="fw-list"
        columns={columns}
        rows={rows}
        total={total}
        loading={list.isFetching}
        empty={{ text: t(`empty.fw.${kind}`), next: addStep(t, canAdd, t('fw.lists.add')) }}
        selectable={canDelete}
        selected={selected}
        setSelected={setSelected}
        query={query}
        setQuery={setQuery}
      />
      {dialog === 'add' && <ListAddModal list={kind} onClose={() => setDialog(null)} />}
      {dialog === 'import' && <ListImportModal list={kind} onClose={() => setDialog(null)} />}
    </Flex>
  );
}

/** The white and black lists: switch between them, search, add, import, export and delete. */
export function ListsPage() {
  return (
    <FirewallTab testId="fw-lists-page">
      <ListsBody />
    </FirewallTab>
  );
}
