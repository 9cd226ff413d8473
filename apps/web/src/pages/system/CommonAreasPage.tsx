import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Flex, Space, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { areaName, type CommonArea, type FirewallChange } from '@rampart/contracts';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { addStep } from '../../components/EmptyHint.tsx';
import { useCan } from '../../session/useUserInfo.ts';
import { formatDateTime } from '../../utils/format.ts';
import { testId } from '../../utils/testId.ts';
import { defaultPageSize, type PageQuery } from '../firewall/api.ts';
import { commonAreaChoicesKey } from '../firewall/commonAreas.ts';
import { FirewallTab, useReportChange } from '../firewall/FirewallTab.tsx';
import { useClampPage } from '../firewall/forms.ts';
import { KeywordSearch, PagedSelectableTable, SelectedCount } from '../firewall/parts.tsx';
import { CommonAreaModal } from './CommonAreaModal.tsx';
import { areasKey, deleteAreas, fetchAreas } from './trustApi.ts';

/** Members shown in a row before "+N". */
const shownMembers = 8;

function AreasBody() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const report = useReportChange();
  const canEdit = useCan('system', 'edit');
  const canDelete = useCan('system', 'delete');
  const [query, setQuery] = useState<PageQuery>({ keyword: '', page: 1, size: defaultPageSize });
  const [selected, setSelected] = useState<number[]>([]);
  // undefined: no dialog; null: adding; an area: editing it.
  const [editing, setEditing] = useState<CommonArea | null | undefined>(undefined);
  const list = useQuery({ queryKey: [...areasKey, query], queryFn: () => fetchAreas(query), placeholderData: keepPreviousData });
  const rows = list.data?.list ?? [];
  const total = list.data?.total ?? 0;
  useClampPage(list.data?.total, query, useCallback((page: number) => setQuery((q) => ({ ...q, page })), []));
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: areasKey });
    // The rule modal's picker names common areas too.
    void queryClient.invalidateQueries({ queryKey: commonAreaChoicesKey });
  };

  const remove = useMutation({
    mutationFn: deleteAreas,
    onSuccess: () => {
      setSelected([]);
      refresh();
    },
  });
  const confirmDelete = (ids: number[]) =>
    modal.confirm({
      title: t('sys_areas.delete_title'),
      content: t('sys_areas.delete_confirm', { count: ids.length }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...testId('area-delete-confirm') },
      onOk: () => remove.mutateAsync(ids).catch(() => undefined),
    });

  const members = (area: CommonArea) => (
    <Space size={[4, 4]} wrap data-testid={`area-members-${area.id}`}>
      {area.members.slice(0, shownMembers).map((code) => (
        <Tag key={code} color="blue">{areaName(code, lang)}</Tag>
      ))}
      {area.members.length > shownMembers && (
        <Tooltip title={area.members.slice(shownMembers).map((code) => areaName(code, lang)).join(', ')}>
          <Tag>{t('sys_areas.more', { count: area.members.length - shownMembers })}</Tag>
        </Tooltip>
      )}
    </Space>
  );
  const columns: TableColumnsType<CommonArea> = [
    { key: 'name', title: t('sys_areas.col_name'), dataIndex: 'name', width: 200, render: (v: string, r) => <Typography.Text strong data-testid={`area-name-${r.id}`}>{v}</Typography.Text> },
    { key: 'members', title: t('sys_areas.col_members'), render: (_v, r) => members(r) },
    { key: 'rules', title: t('sys_areas.col_rules'), dataIndex: 'rules', width: 120, render: (v: number, r) => <span data-testid={`area-rules-${r.id}`}>{v}</span> },
    { key: 'remark', title: t('sys_areas.col_remark'), dataIndex: 'remark', render: (v: string) => v || '-' },
    { key: 'updated', title: t('sys_areas.col_updated'), dataIndex: 'updated_at', width: 180, render: (v: number) => formatDateTime(v) },
  ];
  if (canEdit || canDelete) {
    columns.push({
      key: 'actions', title: t('sys_areas.col_actions'), width: 120,
      render: (_v, r) => (
        <Space>
          {canEdit && (
            <Typography.Link onClick={() => setEditing(r)} data-testid={`area-edit-${r.id}`}>
              {t('sys_areas.edit')}
            </Typography.Link>
          )}
          {canDelete && (
            <Typography.Link type="danger" onClick={() => confirmDelete([r.id])} data-testid={`area-delete-${r.id}`}>
              {t('sys_areas.delete')}
            </Typography.Link>
          )}
        </Space>
      ),
    });
  }

  return (
    <Flex vertical gap={16}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>{t('sys_areas.hint')}</Typography.Paragraph>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <Space wrap>
          {canEdit && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid="area-add">
              {t('sys_areas.add')}
            </Button>
          )}
          {canDelete && (
            <Button danger icon={<DeleteOutlined />} disabled={selected.length === 0} onClick={() => confirmDelete(selected)} data-testid="area-delete-selected">
              {t('sys_areas.delete_selected')}
            </Button>
          )}
          <SelectedCount prefix="area" count={selected.length} />
        </Space>
        <KeywordSearch
          prefix="area"
          placeholder={t('sys_areas.keyword_placeholder')}
          onSearch={(keyword) => {
            setSelected([]);
            setQuery((q) => ({ ...q, keyword, page: 1 }));
          }}
        />
      </Flex>
      <PagedSelectableTable<CommonArea>
        prefix="area"
        columns={columns}
        rows={rows}
        total={total}
        loading={list.isFetching}
        empty={{ text: t('empty.sys.area'), next: addStep(t, canEdit, t('sys_areas.add')) }}
        selectable={canDelete}
        selected={selected}
        setSelected={setSelected}
        query={query}
        setQuery={setQuery}
      />
      {editing !== undefined && (
        <CommonAreaModal
          area={editing}
          onSaved={(change: FirewallChange) => {
            refresh();
            report(change);
          }}
          onClose={() => setEditing(undefined)}
        />
      )}
    </Flex>
  );
}

/**
 * System settings, common areas: named sets of countries and Chinese provinces for firewall rules.
 * Framed like a firewall tab: saving an area that rules use is a firewall change (warnings, probation).
 */
export function CommonAreasPage() {
  return (
    <FirewallTab testId="areas-page">
      <AreasBody />
    </FirewallTab>
  );
}
