import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Flex, Result, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ShortcutSaved, ShortcutStatus, ShortcutView } from '@rampart/contracts';
import { EmptyHint, addStep } from '../../components/EmptyHint.tsx';
import { useCan } from '../../session/useUserInfo.ts';
import { formatDateTime } from '../../utils/format.ts';
import { testId } from '../../utils/testId.ts';
import { deleteShortcut, fetchShortcuts, reissueShortcut, sendShortcutLink, shortcutsKey, testShortcut } from './shortcutsApi.ts';
import { ShortcutLinkModal } from './ShortcutLinkModal.tsx';
import { ShortcutModal } from './ShortcutModal.tsx';

const statusColours: Record<ShortcutStatus, string> = { active: 'green', disabled: 'default', expired: 'red', used_up: 'orange' };

/**
 * System settings, shortcut tab: named operations run from a link without signing in (the design is
 * written at the top of apps/console/src/routes/system-shortcut.ts).
 */
export function ShortcutsPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const canAdd = useCan('system', 'add');
  const canEdit = useCan('system', 'edit');
  const canDelete = useCan('system', 'delete');
  const list = useQuery({ queryKey: shortcutsKey, queryFn: fetchShortcuts });
  const [editing, setEditing] = useState<ShortcutView | 'new' | null>(null);
  const [link, setLink] = useState<{ name: string; path: string } | null>(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: shortcutsKey });

  const showLink = (saved: ShortcutSaved) => {
    void reload();
    if (saved.link) setLink({ name: saved.shortcut.name, path: saved.link });
  };
  const reissue = useMutation({ mutationFn: reissueShortcut, onSuccess: showLink });
  const remove = useMutation({ mutationFn: deleteShortcut, onSettled: reload });
  const test = useMutation({ mutationFn: testShortcut, onSettled: reload });
  const send = useMutation({ mutationFn: sendShortcutLink, onSettled: reload });

  const confirm = (title: string, content: string, okId: string, onOk: () => Promise<unknown>, danger = false) =>
    modal.confirm({
      title, content, okText: t('common.ok'), cancelText: t('common.cancel'),
      okButtonProps: { danger, ...testId(okId) },
      onOk: () => onOk().catch(() => undefined),
    });

  const rows = list.data?.list ?? [];
  const max = list.data?.max ?? 0;
  const describe = (r: ShortcutView) => {
    const a = r.action;
    const detail = a.operation === 'pause_protection' ? t('sys_shortcut.op_pause_detail', { minutes: a.minutes }) : a.operation === 'unblock_ip' ? a.ip : '';
    return detail ? `${t(`sys_shortcut.op.${a.operation}`)} · ${detail}` : t(`sys_shortcut.op.${a.operation}`);
  };

  const columns: TableColumnsType<ShortcutView> = [
    { key: 'name', title: t('sys_shortcut.name'), dataIndex: 'name', width: 160, render: (v: string, r) => <span data-testid={`sc-name-${r.id}`}>{v}</span> },
    { key: 'operation', title: t('sys_shortcut.operation'), width: 220, render: (_v, r) => <span data-testid={`sc-operation-${r.id}`}>{describe(r)}</span> },
    {
      key: 'status', title: t('sys_shortcut.status'), dataIndex: 'status', width: 120,
      render: (v: ShortcutStatus, r) => <Tag color={statusColours[v]} data-testid={`sc-status-${r.id}`}>{t(`sys_shortcut.state.${v}`)}</Tag>,
    },
    { key: 'expires', title: t('sys_shortcut.validity'), dataIndex: 'expires_at', width: 180, render: (v: number | null) => (v === null ? t('sys_shortcut.no_end') : formatDateTime(v)) },
    {
      key: 'uses', title: t('sys_shortcut.uses'), width: 120,
      render: (_v, r) => (
        <span data-testid={`sc-uses-${r.id}`}>
          {r.max_uses > 0 ? t('sys_shortcut.uses_of', { uses: r.uses, max: r.max_uses }) : t('sys_shortcut.uses_unlimited', { uses: r.uses })}
        </span>
      ),
    },
    {
      key: 'last', title: t('sys_shortcut.last_used'), width: 200,
      render: (_v, r) => (
        <span data-testid={`sc-last-${r.id}`}>{r.last_used_at === null ? t('sys_shortcut.never_used') : `${formatDateTime(r.last_used_at)} ${r.last_used_ip}`}</span>
      ),
    },
  ];
  if (canEdit || canDelete) {
    columns.push({
      key: 'actions', title: t('sys_shortcut.actions'), width: 330,
      render: (_v, r) => (
        <Space wrap size="small">
          {canEdit && (
            <>
              <Typography.Link onClick={() => setEditing(r)} data-testid={`sc-edit-${r.id}`}>{t('sys_shortcut.edit')}</Typography.Link>
              <Typography.Link onClick={() => test.mutate(r.id)} data-testid={`sc-test-${r.id}`}>{t('sys_shortcut.test')}</Typography.Link>
              <Typography.Link
                onClick={() => confirm(t('sys_shortcut.reissue_title'), t('sys_shortcut.reissue_confirm', { name: r.name }), 'sc-reissue-confirm', () => reissue.mutateAsync(r.id))}
                data-testid={`sc-reissue-${r.id}`}
              >
                {t('sys_shortcut.reissue')}
              </Typography.Link>
              <Typography.Link
                onClick={() => confirm(t('sys_shortcut.send_title'), t('sys_shortcut.send_confirm', { name: r.name }), 'sc-send-confirm', () => send.mutateAsync(r.id))}
                data-testid={`sc-send-${r.id}`}
              >
                {t('sys_shortcut.send')}
              </Typography.Link>
            </>
          )}
          {canDelete && (
            <Typography.Link
              type="danger"
              onClick={() => confirm(t('sys_shortcut.delete_title'), t('sys_shortcut.delete_confirm', { name: r.name }), 'sc-delete-confirm', () => remove.mutateAsync(r.id), true)}
              data-testid={`sc-delete-${r.id}`}
            >
              {t('sys_shortcut.delete')}
            </Typography.Link>
          )}
        </Space>
      ),
    });
  }

  return (
    <Card data-testid="system-shortcut-page">
      <Flex vertical gap={16}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>{t('sys_shortcut.intro')}</Typography.Paragraph>
        <Flex justify="space-between" align="center" wrap gap={12}>
          {canAdd ? (
            <Button type="primary" icon={<PlusOutlined />} disabled={rows.length >= max} onClick={() => setEditing('new')} data-testid="sc-add">
              {t('sys_shortcut.add')}
            </Button>
          ) : <span />}
          <Typography.Text type="secondary" data-testid="sc-count">{t('sys_shortcut.count', { count: rows.length, max })}</Typography.Text>
        </Flex>
        {list.isError ? (
          <Result status="warning" title={list.error.message} />
        ) : (
          <Table<ShortcutView>
            rowKey="id"
            columns={columns}
            dataSource={rows}
            loading={list.isFetching}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <EmptyHint text={t('empty.sys.shortcut')} next={addStep(t, canAdd, t('sys_shortcut.add'))} testId="sc-empty" /> }}
            onRow={(r) => testId(`sc-row-${r.id}`)}
          />
        )}
      </Flex>
      {editing && (
        <ShortcutModal
          initial={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            showLink(saved);
          }}
        />
      )}
      {link && <ShortcutLinkModal name={link.name} path={link.path} onClose={() => setLink(null)} />}
    </Card>
  );
}
