import { DeleteOutlined, FieldTimeOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Flex, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SuperWhitelistEntry } from '@rampart/contracts';
import { addStep } from '../../components/EmptyHint.tsx';
import { useCan } from '../../session/useUserInfo.ts';
import { formatDateTime } from '../../utils/format.ts';
import { testId } from '../../utils/testId.ts';
import { defaultPageSize, type PageQuery } from '../firewall/api.ts';
import { useClampPage, useNow } from '../firewall/forms.ts';
import { KeywordSearch, PagedSelectableTable, SelectedCount } from '../firewall/parts.tsx';
import { TrustAutoCard } from './TrustAutoCard.tsx';
import { TrustTerminalsCard } from './TrustTerminalsCard.tsx';
import { TrustAddModal, TrustRenewModal } from './TrustModals.tsx';
import { deleteTrust, fetchTrust, trustKey } from './trustApi.ts';

const sourceColors = { manual: 'default', sign_in: 'cyan', terminal: 'purple' } as const;

/**
 * System settings, trust_terminal tab: the super whitelist (IP, adding account, add time, validity,
 * remark), searched and paged; add, renew and delete (one or a selection); the automatic add at sign-in.
 */
export function SuperWhitelistPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canAdd = useCan('system', 'add');
  const canEdit = useCan('system', 'edit');
  const canDelete = useCan('system', 'delete');
  const [query, setQuery] = useState<PageQuery>({ keyword: '', page: 1, size: defaultPageSize });
  const [selected, setSelected] = useState<number[]>([]);
  const [dialog, setDialog] = useState<{ kind: 'add' } | { kind: 'renew'; ids: number[] } | null>(null);
  const now = useNow(60_000);
  const list = useQuery({ queryKey: [...trustKey, 'list', query], queryFn: () => fetchTrust(query), placeholderData: keepPreviousData });
  const rows = list.data?.list ?? [];
  const total = list.data?.total ?? 0;
  useClampPage(list.data?.total, query, useCallback((page: number) => setQuery((q) => ({ ...q, page })), []));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trustKey });

  const remove = useMutation({
    mutationFn: deleteTrust,
    onSuccess: () => {
      setSelected([]);
      refresh();
    },
  });
  const confirmDelete = (ids: number[]) =>
    modal.confirm({
      title: t('sys_trust.delete_title'),
      content: t('sys_trust.delete_confirm', { count: ids.length }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('trust-delete-confirm') },
      onOk: () => remove.mutateAsync(ids).catch(() => undefined),
    });

  const columns: TableColumnsType<SuperWhitelistEntry> = [
    { key: 'ip', title: t('sys_trust.col_ip'), dataIndex: 'address', render: (v: string) => <Typography.Text copyable={{ text: v }}>{v}</Typography.Text> },
    { key: 'added_by', title: t('sys_trust.col_added_by'), dataIndex: 'added_by', width: 130, render: (v: string) => v || '-' },
    { key: 'created', title: t('sys_trust.col_created'), dataIndex: 'created_at', width: 180, render: (v: number) => formatDateTime(v) },
    {
      key: 'validity', title: t('sys_trust.col_validity'), dataIndex: 'expires_at', width: 230,
      render: (v: number | null, r) =>
        v === null ? (
          <Tag color="blue" data-testid={`trust-expiry-${r.id}`}>{t('sys_trust.permanent')}</Tag>
        ) : (
          <Space size={4} data-testid={`trust-expiry-${r.id}`}>
            <span>{formatDateTime(v)}</span>
            {v <= now && <Tag>{t('sys_trust.expired')}</Tag>}
          </Space>
        ),
    },
    {
      key: 'source', title: t('sys_trust.col_source'), dataIndex: 'source', width: 120,
      render: (v: SuperWhitelistEntry['source']) => <Tag color={sourceColors[v]}>{t(`sys_trust.source.${v}`)}</Tag>,
    },
    { key: 'remark', title: t('sys_trust.col_remark'), dataIndex: 'remark', render: (v: string) => v || '-' },
  ];
  if (canEdit || canDelete) {
    columns.push({
      key: 'actions', title: t('sys_trust.col_actions'), width: 130,
      render: (_v, r) => (
        <Space>
          {canEdit && r.expires_at !== null && (
            <Typography.Link onClick={() => setDialog({ kind: 'renew', ids: [r.id] })} data-testid={`trust-renew-${r.id}`}>
              {t('sys_trust.renew')}
            </Typography.Link>
          )}
          {canDelete && (
            <Typography.Link type="danger" onClick={() => confirmDelete([r.id])} data-testid={`trust-delete-${r.id}`}>
              {t('sys_trust.delete')}
            </Typography.Link>
          )}
        </Space>
      ),
    });
  }

  return (
    <Flex vertical gap={16} data-testid="trust-page">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>{t('sys_trust.hint')}</Typography.Paragraph>
      <TrustAutoCard />
      <TrustTerminalsCard />
      <Flex justify="space-between" align="center" wrap gap={12}>
        <Space wrap>
          {canAdd && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'add' })} data-testid="trust-add">
              {t('sys_trust.add')}
            </Button>
          )}
          {canEdit && (
            <Button icon={<FieldTimeOutlined />} disabled={selected.length === 0} onClick={() => setDialog({ kind: 'renew', ids: selected })} data-testid="trust-renew-selected">
              {t('sys_trust.renew_selected')}
            </Button>
          )}
          {canDelete && (
            <Button danger icon={<DeleteOutlined />} disabled={selected.length === 0} onClick={() => confirmDelete(selected)} data-testid="trust-delete-selected">
              {t('sys_trust.delete_selected')}
            </Button>
          )}
          <SelectedCount prefix="trust" count={selected.length} />
        </Space>
        <KeywordSearch
          prefix="trust"
          placeholder={t('sys_trust.keyword_placeholder')}
          onSearch={(keyword) => {
            setSelected([]);
            setQuery((q) => ({ ...q, keyword, page: 1 }));
          }}
        />
      </Flex>
      <PagedSelectableTable<SuperWhitelistEntry>
        prefix="trust"
        columns={columns}
        rows={rows}
        total={total}
        loading={list.isFetching}
        empty={{ text: t('empty.sys.trust'), next: addStep(t, canAdd, t('sys_trust.add')) }}
        selectable={canEdit || canDelete}
        selected={selected}
        setSelected={setSelected}
        query={query}
        setQuery={setQuery}
      />
      {dialog?.kind === 'add' && <TrustAddModal clientIp={list.data?.client_ip ?? ''} onDone={refresh} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'renew' && (
        <TrustRenewModal
          ids={dialog.ids}
          onDone={() => {
            setSelected([]);
            refresh();
          }}
          onClose={() => setDialog(null)}
        />
      )}
    </Flex>
  );
}
